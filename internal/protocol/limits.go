package protocol

// MaxLineBytes is the longest line mcptui reads whole by default, on stdio
// and in the recordings and taps that hold stdio lines: 16 MiB. A longer
// line is discarded (its size counted), never held.
const MaxLineBytes = 16 << 20
