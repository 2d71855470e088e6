package protocol

import "slices"

// The revisions of the specification mcptui speaks, oldest first.
const (
	// Rev20241105 is the oldest revision spoken (the first published one).
	Rev20241105 = "2024-11-05"
	// Rev20250326 added tool annotations, audio content, the progress
	// message, the completions capability and JSON-RPC batches.
	Rev20250326 = "2025-03-26"
	// Rev20250618 added elicitation, structured tool output, resource links
	// and titles, and removed JSON-RPC batches.
	Rev20250618 = "2025-06-18"
	// Rev20251125 is the newest initialize-era revision.
	Rev20251125 = "2025-11-25"
	// Rev20260728 is the stateless revision: no handshake, per-request
	// _meta, server/discover, input_required results, subscriptions/listen.
	Rev20260728 = "2026-07-28"

	// PreRelease20241007 is the pre-release the TypeScript SDK still
	// accepts; it is spoken as 2024-11-05 (see Canonical).
	PreRelease20241007 = "2024-10-07"
)

// Named places in the order of revisions.
const (
	// Oldest is the first revision spoken.
	Oldest = Rev20241105
	// Newest is the latest revision spoken.
	Newest = Rev20260728
	// LastInitializeEra is the newest revision that opens a session with
	// initialize; every later one is stateless.
	LastInitializeEra = Rev20251125
	// FirstStateless is the first revision of the stateless era.
	FirstStateless = Rev20260728
)

// revisions lists every revision spoken, oldest first.
var revisions = [...]string{Rev20241105, Rev20250326, Rev20250618, Rev20251125, Rev20260728}

// Revisions are the revisions spoken, oldest first (a new slice each call).
func Revisions() []string { return slices.Clone(revisions[:]) }

// NewestFirst are the revisions spoken, newest first: the default
// preference order of a client (a new slice each call).
func NewestFirst() []string {
	r := Revisions()
	slices.Reverse(r)
	return r
}

// Canonical is the revision spoken for version: 2024-10-07 is 2024-11-05
// (the same messages), every other one itself.
func Canonical(version string) string {
	if version == PreRelease20241007 {
		return Rev20241105
	}
	return version
}

// Known reports whether version is spoken (2024-10-07 included, spoken as
// 2024-11-05).
func Known(version string) bool { return slices.Contains(revisions[:], Canonical(version)) }

// Before reports whether version is older than other (both known, or at
// least in the YYYY-MM-DD form, which orders them as strings).
func Before(version, other string) bool { return Canonical(version) < Canonical(other) }

// Stateless reports whether version is of the stateless era (no
// initialize, per-request _meta), as opposed to the initialize era.
func Stateless(version string) bool { return version >= FirstStateless }

// Batches reports whether version lets a peer send a JSON-RPC batch (an
// array of messages on one line): only 2025-03-26, whose clients MUST
// accept one.
func Batches(version string) bool { return version == Rev20250326 }
