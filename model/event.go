package model

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/check/lint"
	"github.com/mcptui/mcptui/internal/rpccall"
)

// Event is one thing that happened, to be folded into a Session by Apply.
// Every event carries the time it happened; the reducer reads no clock.
type Event interface {
	// When is the time the event happened.
	When() time.Time
}

// Stamp is what every event of a connection carries: when it happened, and
// the connection generation it belongs to.
type Stamp struct {
	Time time.Time
	// Gen is the connection generation the event belongs to (see
	// ConnState.Gen); 0 means the current one.
	Gen int
}

// When implements Event.
func (s Stamp) When() time.Time { return s.Time }

// stamp returns the stamp itself, for an event that embeds it.
func (s Stamp) stamp() Stamp { return s }

// Direction says which way a line went.
type Direction int

// The directions of a line.
const (
	// Out is from the client (us) to the server.
	Out Direction = iota + 1
	// In is from the server to the client.
	In
)

// String is "out" or "in".
func (d Direction) String() string {
	switch d {
	case Out:
		return "out"
	case In:
		return "in"
	}
	return "?"
}

// Wire is one line that crossed the connection, or one that was discarded.
// (Its flags sit together at the end: boxed in an Event under a flood, per
// line, it takes a 256-byte allocation, not 288.)
type Wire struct {
	Stamp
	Dir Direction
	// Line is the line without its newline; nil when it was too long to
	// keep. Apply copies what it keeps, so the caller may reuse it, unless
	// Owned says the line is the event's own.
	Line []byte
	// Size is the number of bytes of the line, even when Line is nil.
	Size int
	// Reason says why a Discarded line was discarded. On a line that was
	// not discarded, it is a mark shown with it (what a tap's breakpoint
	// did to it).
	Reason string
	// Head is the start of a line discarded over the limit (Line is nil
	// then), from which the id of the answer it held may be read.
	Head []byte
	// GaveUp, on a notifications/cancelled we sent because the transport
	// gave up on the request, says why: the timer that fired, or the
	// context's cause (conn.Event.Err of the line).
	GaveUp *rpccall.GaveUp
	// prep is the line read ahead by FromConn (prepare.go).
	prep prepared
	// findings is what the line broke, set by a Prelinter (their Seq is
	// set by Apply).
	findings []lint.Finding
	// Owned marks a Line that nothing else holds or changes (FromConn's
	// copy): Apply keeps it as it is instead of copying it again, one
	// allocation less per line of a flood.
	Owned bool
	// Discarded marks a line conn could not use (Reason says why).
	Discarded bool
	// Lost marks a line whose content the inbox dropped under overload.
	// Line is then nil, or the line's envelope (EnvelopeStub) when it was
	// a request, response or error: enough to close what it answers.
	Lost bool
}

// Exited is the end of the server process.
type Exited struct {
	Stamp
	// Status is the exit status as text ("exit status 1", "signal: killed"),
	// empty for a clean exit.
	Status string
}

// Stderr is one line the server wrote to its stderr.
type Stderr struct {
	Stamp
	Line string
}

// Started is a server process (re)starting: a new generation of the
// connection. After the first one it draws a boundary in the history.
//
// Its stamp's Gen numbers the generation this process starts; 0 means the
// one after the current one.
type Started struct {
	Stamp
	Command []string
	PID     int
}

// Negotiating is a step of version negotiation (the probe, its answer, a
// respawn), shown while the connection is not ready.
type Negotiating struct {
	Stamp
	Step string
}

// Ready is the end of negotiation: the server's identity and the protocol.
type Ready struct {
	Stamp
	ServerName    string
	ServerVersion string
	Protocol      string
	PID           int
	// Transport names the HTTP transport the session runs over ("HTTP"
	// for Streamable HTTP, "HTTP+SSE" for 2024-11-05's); "" for a process
	// or when unknown (a recording).
	Transport string
	// Offered are the versions the server said it speaks (nil: unknown).
	Offered []string
	// Info is the rest of what the server said of itself, and why the
	// version was chosen.
	Info ServerInfo
}

// Authorizing is an OAuth authorization running after the connection was
// opened (a refresh, more scopes, a new login), at one of its steps; Text
// is "" once it ends. URL is the authorization URL to open, at that step.
type Authorizing struct {
	Stamp
	Text, URL string
}

// Spawned is a server process started, with its pid, as soon as it runs
// (before negotiation; again for a respawn during negotiation).
type Spawned struct {
	Stamp
	PID int
}

// Stopping is a stage of shutting the server down (stdin closed, SIGTERM
// sent, SIGKILL sent, stopped), for a quit or a restart.
type Stopping struct {
	Stamp
	Stage string
}

// Failed is a start or negotiation that did not produce a connection (the
// executable was not found, the process exited at once).
type Failed struct {
	Stamp
	Err string
	// Stopped says mcptui stopped a server that was still running because
	// the start failed on a request of the negotiation (an error answer,
	// no answer in time, a version it may not speak). False when the
	// connection itself ended (the server exited, a pipe or an HTTP
	// request failed) or never began.
	Stopped bool
}

// CallOptions tells the model the timer options of one of our requests, so
// the in-flight table can show its deadline. It may arrive before or after
// the request's line. Requests without one use Config's defaults.
type CallOptions struct {
	Stamp
	ID json.RawMessage
	// Method is the request's method: until its line is written (a server
	// that does not read its stdin may never take it), the call is listed
	// as queued under it.
	Method          string
	Timeout         time.Duration // <= 0: no timer
	ResetOnProgress bool
	MaxTotal        time.Duration
}

// CallEnded is the end of one of our requests as its sender saw it: Err is
// why it failed ("" for success). A request still pending in the model
// (its line never written, or no answer, cancellation or exit seen) ends
// with it; one that ended on the wire is not touched.
type CallEnded struct {
	Stamp
	ID   json.RawMessage
	Code int
	Err  string
	// Cancelled says the sender cancelled it.
	Cancelled bool
}

// Extended moves the deadline of one of our requests later by By.
type Extended struct {
	Stamp
	ID json.RawMessage
	By time.Duration
}

// QuestionAsked is the server asking a person something: a server-to-client
// request (RequestID set) or one entry of an input_required result (Key set).
type QuestionAsked struct {
	Stamp
	RequestID json.RawMessage
	// Key names an input_required entry; ignored when RequestID is set.
	Key    string
	Method string
	Params json.RawMessage
	// CallMethod and Round say which request of ours got the
	// input_required result, and which round it was.
	CallMethod string
	Round      int
	// CallID is the wire id of our request whose input_required result
	// holds the entry (nil for a server request, or when unknown): the
	// question belongs to that request's record.
	CallID json.RawMessage
	// Note says why a policy that would have answered asks instead (its
	// prepared answer does not fit this question).
	Note string
}

// QuestionResolved ends a question: answered, rejected, cancelled by the
// server or dead with the connection. It is idempotent: a question leaves
// the waiting state once.
type QuestionResolved struct {
	Stamp
	RequestID json.RawMessage
	Key       string
	State     QuestionState
	// Answer is the result sent (Answered, or a decline/cancel of an
	// elicitation); Err the error sent (Rejected).
	Answer json.RawMessage
	Err    *RPCError
	// Auto is the answer policy that answered without a person, in the
	// --answer vocabulary ("roots=answer"); "" when a person did. Its
	// answer's line on the wire is marked with it.
	Auto string
}

// SubscriptionOpened is a subscription the backend opened without a
// subscriptions/listen request on the wire (an initialize-era server, where
// it is made of resources/subscribe and list-changed notifications). ID is
// the backend's name for it, used to close it.
type SubscriptionOpened struct {
	Stamp
	ID       json.RawMessage
	Asked    json.RawMessage
	Accepted json.RawMessage
}

// SubscriptionEvent is one notification delivered to a subscription that
// SubscriptionOpened described.
type SubscriptionEvent struct {
	Stamp
	ID     json.RawMessage
	Method string
	Params json.RawMessage
}

// SubscriptionEnded ends a subscription that SubscriptionOpened described.
type SubscriptionEnded struct {
	Stamp
	ID     json.RawMessage
	Reason string
}

// Lost counts events the inbox dropped entirely under overload.
type Lost struct {
	Time time.Time
	N    int
}

// When implements Event.
func (e Lost) When() time.Time { return e.Time }

// FromConnGen is FromConn with the event stamped with the connection
// generation it belongs to, so that a late event of a process that was
// restarted never touches its successor.
func FromConnGen(ev conn.Event, gen int) Event { return fromConn(ev, gen) }

// FromConn adapts an event of conn's Observer. The line is copied, because
// conn owns it and the event outlives the callback.
func FromConn(ev conn.Event) Event { return fromConn(ev, 0) }

// fromConn is FromConn stamped with gen. The event is made whole before it
// becomes an Event: a Wire is some 200 bytes, and each conversion to the
// interface copies it to the heap (under a flood, per line).
func fromConn(ev conn.Event, gen int) Event {
	switch ev.Kind {
	case conn.Exited:
		status := ""
		if ev.Err != nil {
			status = ev.Err.Error()
		}
		return Exited{Stamp: Stamp{Time: ev.Time, Gen: gen}, Status: status}
	case conn.Sent:
		w := Wire{Stamp: Stamp{Time: ev.Time, Gen: gen}, Dir: Out, Line: clone(ev.Line), Size: ev.Size, Owned: true}
		if ev.Err != nil {
			_ = errors.As(ev.Err, &w.GaveUp)
		}
		w.prepare()
		return w
	case conn.Discarded:
		reason := ""
		if ev.Err != nil {
			reason = ev.Err.Error()
		}
		return Wire{Stamp: Stamp{Time: ev.Time, Gen: gen}, Dir: In, Line: clone(ev.Line), Size: ev.Size, Discarded: true, Reason: reason, Head: clone(ev.Head), Owned: true}
	default:
		w := Wire{Stamp: Stamp{Time: ev.Time, Gen: gen}, Dir: In, Line: clone(ev.Line), Size: ev.Size, Owned: true}
		w.prepare()
		return w
	}
}
