package export

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/record"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the members
// this export fills. Custom members start with "_", as the format allows.
type harFile struct {
	Log harLog `json:"log"`
}

type harLog struct {
	Version string     `json:"version"`
	Creator harCreator `json:"creator"`
	Pages   []harPage  `json:"pages"`
	Entries []harEntry `json:"entries"`
	Comment string     `json:"comment,omitempty"`
}

type harCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type harPage struct {
	StartedDateTime string         `json:"startedDateTime"`
	ID              string         `json:"id"`
	Title           string         `json:"title"`
	PageTimings     harPageTimings `json:"pageTimings"`
}

type harPageTimings struct {
	OnContentLoad float64 `json:"onContentLoad"`
	OnLoad        float64 `json:"onLoad"`
}

type harEntry struct {
	Pageref         string      `json:"pageref"`
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         harRequest  `json:"request"`
	Response        harResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         harTimings  `json:"timings"`
	Comment         string      `json:"comment,omitempty"`
	// MCP is what the entry is in MCP's terms.
	MCP harMCP `json:"_mcp"`
}

type harMCP struct {
	// Direction is "client-to-server" or "server-to-client": who sent
	// the request (or the notification).
	Direction string `json:"direction"`
	Method    string `json:"method"`
	ID        string `json:"id,omitempty"`
	// Kind is "request" or "notification".
	Kind      string `json:"kind"`
	Error     string `json:"error,omitempty"`
	Cancelled string `json:"cancelled,omitempty"`
}

type harRequest struct {
	Method      string     `json:"method"`
	URL         string     `json:"url"`
	HTTPVersion string     `json:"httpVersion"`
	Cookies     []struct{} `json:"cookies"`
	Headers     []harNV    `json:"headers"`
	QueryString []harNV    `json:"queryString"`
	PostData    *harPost   `json:"postData,omitempty"`
	HeadersSize int        `json:"headersSize"`
	BodySize    int        `json:"bodySize"`
}

type harNV struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harPost struct {
	MimeType string  `json:"mimeType"`
	Params   []harNV `json:"params"`
	Text     string  `json:"text"`
}

type harResponse struct {
	Status      int        `json:"status"`
	StatusText  string     `json:"statusText"`
	HTTPVersion string     `json:"httpVersion"`
	Cookies     []struct{} `json:"cookies"`
	Headers     []harNV    `json:"headers"`
	Content     harContent `json:"content"`
	RedirectURL string     `json:"redirectURL"`
	HeadersSize int        `json:"headersSize"`
	BodySize    int        `json:"bodySize"`
	Comment     string     `json:"comment,omitempty"`
}

type harContent struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

type harTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
	SSL     float64 `json:"ssl"`
}

// harMapping is said in the file's comment: a HAR reader sees entries,
// and the entries of an mcptui export are JSON-RPC exchanges.
const harMapping = "Exported by mcptui from a recording. Each entry is one JSON-RPC exchange of the MCP session, " +
	"not an HTTP request as such: the request's line is the POST body; the response's content is what the server " +
	"sent for it, as Streamable HTTP would stream it (text/event-stream: its progress notifications, then its answer) " +
	"or the answer alone (application/json). Status 200 is an answer (a JSON-RPC error too: see _mcp.error), " +
	"0 no answer (cancelled, or the session ended first), 202 a notification (no answer is due). A request the server " +
	"sent to the client (sampling, elicitation, roots, ping) has _mcp.direction server-to-client; so has a notification " +
	"the server sent on its own. For stdio the URL is mcp-stdio://COMMAND/METHOD; for a server reached over HTTP, " +
	"its URL with #METHOD (the recording keeps the messages, not the HTTP exchanges' headers). Secrets are redacted."

// WriteHAR writes the session as an HTTP Archive 1.2.
func WriteHAR(w io.Writer, s *Session, creatorVersion string) error {
	if creatorVersion == "" {
		creatorVersion = "dev"
	}
	title := strings.Join(append([]string{record.RedactURL(s.Header.Command)}, record.RedactArgs(s.Header.Args, false)...), " ")
	if s.Ready != nil && s.Ready.Server != nil {
		title = fmt.Sprintf("%s %s (%s, MCP %s)", s.Ready.Server.Name, s.Ready.Server.Version, title, s.Ready.Protocol)
	}
	f := harFile{Log: harLog{Version: "1.2", Creator: harCreator{Name: "mcptui", Version: creatorVersion},
		Pages: []harPage{{StartedDateTime: harTime(s.Header.Time), ID: "session", Title: title,
			PageTimings: harPageTimings{OnContentLoad: -1, OnLoad: ms(s.End.Sub(s.Header.Time))}}},
		Entries: []harEntry{}, Comment: harMapping}}
	type item struct {
		t time.Time
		e harEntry
	}
	var items []item
	claimed := map[*Message]bool{}
	for _, x := range s.Exchanges {
		for _, p := range x.Progress {
			claimed[p] = true
		}
		items = append(items, item{x.Start(), s.harExchange(x)})
	}
	for _, n := range s.Notifications {
		if claimed[n] {
			continue // in its request's stream
		}
		items = append(items, item{n.Time, s.harNotification(n)})
	}
	// Stable by time: exchanges first at equal times, as they were added.
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].t.Before(items[j-1].t); j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
	for _, it := range items {
		f.Log.Entries = append(f.Log.Entries, it.e)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(f)
}

// harURL is the URL an entry stands at.
func (s *Session) harURL(method string) string {
	if s.HTTP() {
		return record.RedactURL(s.Header.Command) + "#" + strings.ReplaceAll(url.PathEscape(method), "%2F", "/")
	}
	name := filepath.Base(s.Header.Command)
	if name == "." || name == "/" || name == "" {
		name = "server"
	}
	return "mcp-stdio://" + url.PathEscape(name) + "/" + strings.ReplaceAll(url.PathEscape(method), "%2F", "/")
}

func (s *Session) harExchange(x *Exchange) harEntry {
	m := x.Request.Msg
	dir := "client-to-server"
	if x.FromServer {
		dir = "server-to-client"
	}
	body := string(redactedJSON(x.Request.Raw))
	e := harEntry{Pageref: "session", StartedDateTime: harTime(x.Start()),
		Request: harRequest{Method: "POST", URL: s.harURL(m.Method), HTTPVersion: "JSON-RPC/2.0", Cookies: []struct{}{},
			Headers: []harNV{{"Content-Type", "application/json"}}, QueryString: []harNV{},
			PostData: &harPost{MimeType: "application/json", Params: []harNV{}, Text: body}, HeadersSize: -1, BodySize: len(body)},
		MCP: harMCP{Direction: dir, Method: m.Method, ID: m.IDString, Kind: "request"}}
	var parts []string
	stream := len(x.Progress) > 0
	for _, p := range x.Progress {
		parts = append(parts, "event: message\ndata: "+string(redactedJSON(p.Raw))+"\n\n")
	}
	resp := harResponse{HTTPVersion: "JSON-RPC/2.0", Cookies: []struct{}{}, Headers: []harNV{}, HeadersSize: -1}
	end := x.End(s.End)
	switch {
	case x.Response != nil:
		resp.Status, resp.StatusText = 200, "OK"
		if r := x.Response.Msg; r.Error != nil {
			e.MCP.Error = fmt.Sprintf("%d %s", r.Error.Code, redact(r.Error.Message))
			resp.StatusText = "JSON-RPC error " + fmt.Sprint(r.Error.Code)
		} else if r.ToolError {
			e.MCP.Error = "tool_error"
			resp.StatusText = "OK (isError)"
		}
		if stream {
			parts = append(parts, "event: message\ndata: "+string(redactedJSON(x.Response.Raw))+"\n\n")
		} else {
			parts = append(parts, string(redactedJSON(x.Response.Raw)))
		}
	case x.Cancel != nil:
		resp.StatusText = "no answer: cancelled"
		e.MCP.Cancelled = redact(x.Cancel.Msg.Reason)
	default:
		resp.StatusText = "no answer before the session ended"
	}
	text := strings.Join(parts, "")
	resp.Content = harContent{Size: len(text), MimeType: "application/json", Text: text}
	if stream {
		resp.Content.MimeType = "text/event-stream"
	}
	resp.Headers = []harNV{{"Content-Type", resp.Content.MimeType}}
	resp.BodySize = len(text)
	if resp.Status == 0 {
		resp.BodySize = -1
	}
	e.Response = resp
	wait := ms(end.Sub(x.Start()))
	e.Time = wait
	e.Timings = harTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1, Send: 0, Wait: wait, Receive: 0}
	return e
}

func (s *Session) harNotification(n *Message) harEntry {
	dir := "client-to-server"
	if n.FromServer {
		dir = "server-to-client"
	}
	body := string(redactedJSON(n.Raw))
	e := harEntry{Pageref: "session", StartedDateTime: harTime(n.Time),
		Request: harRequest{Method: "POST", URL: s.harURL(n.Msg.Method), HTTPVersion: "JSON-RPC/2.0", Cookies: []struct{}{},
			Headers: []harNV{{"Content-Type", "application/json"}}, QueryString: []harNV{},
			PostData: &harPost{MimeType: "application/json", Params: []harNV{}, Text: body}, HeadersSize: -1, BodySize: len(body)},
		Response: harResponse{Status: 202, StatusText: "Accepted (a notification)", HTTPVersion: "JSON-RPC/2.0", Cookies: []struct{}{},
			Headers: []harNV{}, Content: harContent{Size: 0, MimeType: "application/json", Text: ""}, HeadersSize: -1, BodySize: 0},
		Timings: harTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1},
		MCP:     harMCP{Direction: dir, Method: n.Msg.Method, Kind: "notification"}}
	if n.Msg.Method == "notifications/cancelled" {
		e.MCP.Cancelled = redact(n.Msg.Reason)
	}
	return e
}

// harTime is an ISO 8601 time with milliseconds and a zone, as HAR wants.
func harTime(t time.Time) string { return t.Format("2006-01-02T15:04:05.000Z07:00") }
