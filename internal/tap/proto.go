package tap

import "time"

// The operations a viewer sends the tap, one JSON object a line. The first
// line of a connection is "info" (the tap answers with one Info and closes)
// or "watch" (the tap sends its feed until either side closes); a watching
// viewer may then send "break" and "resolve".
const (
	OpInfo    = "info"
	OpWatch   = "watch"
	OpBreak   = "break"
	OpResolve = "resolve"
)

// The actions that resolve a hold.
const (
	// ActionForward lets the held line go on unchanged.
	ActionForward = "forward"
	// ActionDrop drops it: its destination never sees it.
	ActionDrop = "drop"
	// ActionEdit sends Line (a JSON value) in its place.
	ActionEdit = "edit"
	// ActionAnswer drops it and writes Line back to its sender, as if the
	// other side had answered.
	ActionAnswer = "answer"
)

// Request is one line a viewer sends.
type Request struct {
	Op string `json:"op"`
	// Filter is what "break" arms (traffic filter syntax, see ParseFilter);
	// "" disarms the viewer's breakpoints.
	Filter string `json:"filter,omitempty"`
	// DeadlineMs is how long a hold of "break" lasts before the line goes
	// on unchanged (0: DefaultHoldDeadline; capped at MaxHoldDeadline).
	DeadlineMs int64 `json:"deadlineMs,omitempty"`
	// Hold, Action and Line are a "resolve": which hold, what to do, and
	// for an edit or an answer the JSON text to send (the tap validates
	// it and puts it on one line).
	Hold   uint64 `json:"hold,omitempty"`
	Action string `json:"action,omitempty"`
	Line   string `json:"line,omitempty"`
}

// Info describes a running tap, for mcptui attach's list.
type Info struct {
	Name string `json:"name"`
	// Host is the name of the tap's parent process (the host that started
	// it), HostPID its pid.
	Host    string    `json:"host"`
	HostPID int       `json:"hostPid"`
	TapPID  int       `json:"tapPid"`
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Args    []string  `json:"args"`
	Started time.Time `json:"started"`
	// Lines and bytes relayed each way: Sent from the host to the server,
	// Received from the server to the host. Lines counts the lines the tap
	// looked at; Spliced are the bytes (of Bytes) it relayed inside the
	// kernel without looking, when nobody needed to see them.
	LinesSent       int64 `json:"linesSent"`
	LinesReceived   int64 `json:"linesReceived"`
	BytesSent       int64 `json:"bytesSent"`
	BytesReceived   int64 `json:"bytesReceived"`
	SplicedSent     int64 `json:"splicedSent,omitempty"`
	SplicedReceived int64 `json:"splicedReceived,omitempty"`
	Viewers         int   `json:"viewers"`
	Holds           int   `json:"holds"`
}

// Feed entries that are not recording entries: the tap tells the viewer
// that armed a breakpoint about its holds (no other viewer sees them, and
// they are not in the recording; the lines' marks are).
const (
	// TypeArmed acknowledges a "break": Filter is what is armed now, Error
	// why the filter was refused.
	TypeArmed = "armed"
	// TypeHold is a line held for this viewer.
	TypeHold = "hold"
	// TypeResolved says how a hold ended (Mark), whoever ended it.
	TypeResolved = "resolved"
)

// Message is a feed entry of one of the types above.
type Message struct {
	Type     string    `json:"type"`
	Time     time.Time `json:"t"`
	Filter   string    `json:"filter,omitempty"`
	Error    string    `json:"error,omitempty"`
	Hold     uint64    `json:"hold,omitempty"`
	Dir      string    `json:"dir,omitempty"` // "sent" (to the server) or "received" (to the host)
	Deadline time.Time `json:"deadline,omitzero"`
	// Line is the held line, without its newline.
	Line []byte `json:"line,omitempty"`
	Mark string `json:"mark,omitempty"`
}

// Hold deadlines.
const (
	DefaultHoldDeadline = 30 * time.Second
	MaxHoldDeadline     = 10 * time.Minute
)
