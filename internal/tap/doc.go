// Package tap puts mcptui between a real MCP host (a desktop chat app, a
// coding agent, an IDE) and a stdio server: Run starts the server and relays
// both streams byte for byte, passes stderr through, forwards signals and the
// exit status, and publishes the session live on a unix socket in the user's
// runtime directory, in mcptui's recording format, for any number of viewers
// (mcptui attach). A viewer may arm breakpoints: lines matching a traffic
// filter are held until it forwards, edits, drops or answers them, or until
// the hold's deadline passes and the line goes on unchanged.
//
// The relay never waits for the viewer side. What the feed takes (within
// its queue and rate) a direction copies from one pipe to the other, and
// only then hands a copy to a bounded feed that splits it into lines for the
// recording and the viewers, off the relay's goroutines, a batch every few
// milliseconds. What nobody needs to see it moves inside the kernel (on
// Linux, splice(2), between pipes and sockets): all but the last byte of
// each batch into a private pipe, the last byte read by the tap (so that
// it always knows where lines end) and written behind them, and the batch
// on in one piece; the viewers are told how much they did not see, and the
// host sees nothing of it. The tap waits on the host's blocking pipes in
// Go's poller through open files of its own (the host's ends keep their
// flags) and grows the host's pipes as it grows the server's, so a flood
// crosses in few, large batches. Only an armed breakpoint makes a direction go line by line (a line
// must be whole to be matched), and only lines up to the hold limit can be
// held; disarmed, the direction goes back to the fast path between lines.
package tap
