package export

import (
	"bytes"
	"encoding/json"
	"io"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/record"
)

// Doc is the --format json document: the session's exchanges with what
// belongs to each, redacted. Its shape:
//
//	{"format":"mcptui-export","version":1,
//	 "session":{"command","args","transport":"stdio"|"http","mode","server":{"name","version"},
//	            "protocol","pid","start","end","durationMs","exit","failed","complete"},
//	 "exchanges":[{"id","direction":"client-to-server"|"server-to-client","method","target",
//	               "start","durationMs","outcome":"ok"|"error"|"tool_error"|"cancelled"|"unanswered",
//	               "request":{...},"response":{...},"progress":[{...}],"cancel":{...}}],
//	 "notifications":[{"t","direction","method","message":{...}}],
//	 "stderr":[{"t","text"}]}
//
// Messages are the JSON-RPC objects as sent (after redaction); times are
// RFC 3339 with nanoseconds.
type Doc struct {
	Format        string        `json:"format"`
	Version       int           `json:"version"`
	Session       DocSession    `json:"session"`
	Exchanges     []DocExchange `json:"exchanges"`
	Notifications []DocNote     `json:"notifications"`
	Stderr        []DocLine     `json:"stderr"`
}

// DocSession describes the session.
type DocSession struct {
	Command    string         `json:"command"`
	Args       []string       `json:"args"`
	Transport  string         `json:"transport"`
	Mode       string         `json:"mode,omitempty"`
	Server     *record.Server `json:"server,omitempty"`
	Protocol   string         `json:"protocol,omitempty"`
	PID        int            `json:"pid,omitempty"`
	Start      time.Time      `json:"start"`
	End        time.Time      `json:"end"`
	DurationMs float64        `json:"durationMs"`
	Exit       string         `json:"exit,omitempty"`
	Failed     string         `json:"failed,omitempty"`
	Complete   bool           `json:"complete"`
}

// DocExchange is one request.
type DocExchange struct {
	ID         string            `json:"id"`
	Direction  string            `json:"direction"`
	Method     string            `json:"method"`
	Target     string            `json:"target,omitempty"`
	Start      time.Time         `json:"start"`
	DurationMs float64           `json:"durationMs"`
	Outcome    string            `json:"outcome"`
	Request    json.RawMessage   `json:"request"`
	Response   json.RawMessage   `json:"response,omitempty"`
	Progress   []json.RawMessage `json:"progress,omitempty"`
	Cancel     json.RawMessage   `json:"cancel,omitempty"`
}

// DocNote is one notification.
type DocNote struct {
	Time      time.Time       `json:"t"`
	Direction string          `json:"direction"`
	Method    string          `json:"method"`
	Message   json.RawMessage `json:"message"`
}

// DocLine is one stderr line.
type DocLine struct {
	Time time.Time `json:"t"`
	Text string    `json:"text"`
}

// Outcome says how an exchange ended: ok, error (a JSON-RPC error),
// tool_error (a tool result with isError), cancelled, or unanswered.
func (x *Exchange) Outcome() string {
	switch {
	case x.Response != nil && x.Response.Msg.Error != nil:
		return "error"
	case x.Response != nil && x.Response.Msg.ToolError:
		return "tool_error"
	case x.Response != nil:
		return "ok"
	case x.Cancel != nil:
		return "cancelled"
	}
	return "unanswered"
}

func direction(fromServer bool) string {
	if fromServer {
		return "server-to-client"
	}
	return "client-to-server"
}

// redactedJSON is a line redacted, as JSON when it still is (a redacted
// value stays a JSON string), else as a JSON string. The text is redacted
// whole (a member whose name looks secret), then every string value once
// decoded: a secret written with escapes, or followed by the closing
// quote where the free-text form wants a space, is caught too.
func redactedJSON(raw []byte) json.RawMessage {
	r := redact(string(raw))
	if !json.Valid([]byte(r)) {
		b, _ := json.Marshal(r)
		return b
	}
	if out, err := redactStrings([]byte(r)); err == nil {
		return out
	}
	return json.RawMessage(r)
}

// redactStrings rewrites every string value of a JSON text (not the
// names) through redact, keeping the order of members.
func redactStrings(in []byte) (json.RawMessage, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(in), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if tok.Kind() == '"' && !isName(dec) {
			tok = jsontext.String(redact(tok.String()))
		}
		if err := enc.WriteToken(tok); err != nil {
			return nil, err
		}
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

// isName reports whether the string token just read is an object's
// member name.
func isName(dec *jsontext.Decoder) bool {
	kind, length := dec.StackIndex(dec.StackDepth())
	return kind == '{' && length%2 == 1
}

// BuildDoc is the session as a Doc.
func BuildDoc(s *Session) *Doc {
	d := &Doc{Format: "mcptui-export", Version: 1, Exchanges: []DocExchange{}, Notifications: []DocNote{}, Stderr: []DocLine{},
		Session: DocSession{Command: record.RedactURL(s.Header.Command), Args: record.RedactArgs(s.Header.Args, false),
			Transport: "stdio", Mode: s.Header.Mode, Start: s.Header.Time, End: s.End, DurationMs: ms(s.End.Sub(s.Header.Time)),
			Exit: s.Exit, Failed: redact(s.Failed), Complete: s.Complete}}
	if d.Session.Args == nil {
		d.Session.Args = []string{}
	}
	if s.HTTP() {
		d.Session.Transport = "http"
	}
	if s.Ready != nil {
		d.Session.Server, d.Session.Protocol, d.Session.PID = s.Ready.Server, s.Ready.Protocol, s.Ready.PID
	}
	for _, x := range s.Exchanges {
		m := x.Request.Msg
		dx := DocExchange{ID: m.IDString, Direction: direction(x.FromServer), Method: m.Method, Target: m.Target,
			Start: x.Start(), DurationMs: ms(x.End(s.End).Sub(x.Start())), Outcome: x.Outcome(), Request: redactedJSON(x.Request.Raw)}
		if x.Response != nil {
			dx.Response = redactedJSON(x.Response.Raw)
		}
		for _, p := range x.Progress {
			dx.Progress = append(dx.Progress, redactedJSON(p.Raw))
		}
		if x.Cancel != nil {
			dx.Cancel = redactedJSON(x.Cancel.Raw)
		}
		d.Exchanges = append(d.Exchanges, dx)
	}
	for _, n := range s.Notifications {
		d.Notifications = append(d.Notifications, DocNote{Time: n.Time, Direction: direction(n.FromServer), Method: n.Msg.Method, Message: redactedJSON(n.Raw)})
	}
	for _, l := range s.Stderr {
		d.Stderr = append(d.Stderr, DocLine{Time: l.Time, Text: redact(l.Text)})
	}
	return d
}

// WriteJSON writes the session as one JSON document (see Doc).
func WriteJSON(w io.Writer, s *Session) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(BuildDoc(s))
}
