package export

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/protocol"
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
	// Messages is how many messages an HTTP response's body delivered.
	Messages int `json:"messages,omitempty"`
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

// harHTTPMapping is the comment of a HAR of a recording that kept its
// HTTP exchanges.
const harHTTPMapping = "Exported by mcptui from a recording of a server reached over HTTP: each entry is one HTTP " +
	"exchange as it happened (method, URL, status, headers redacted as mcptui's network view redacts them, timings to " +
	"the headers and to the body's end). The request's content is the JSON-RPC message it carried; the response's " +
	"content is, for a POST carrying a request, what the server sent for that request (its progress notifications " +
	"and its answer, as SSE events when the response was a stream); a standalone GET stream's messages are not " +
	"repeated (see _mcp.messages). Secrets are redacted."

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
	if len(s.HTTPExchanges) > 0 {
		f.Log.Comment = harHTTPMapping
		for _, h := range s.HTTPExchanges {
			items = append(items, item{h.Entry.Time, s.harHTTP(h)})
		}
	}
	claimed := map[*Message]bool{}
	for _, x := range s.Exchanges {
		if len(s.HTTPExchanges) > 0 {
			break // the HTTP exchanges carried them
		}
		for _, p := range x.Progress {
			claimed[p] = true
		}
		items = append(items, item{x.Start(), s.harExchange(x)})
	}
	for _, n := range s.Notifications {
		if claimed[n] || len(s.HTTPExchanges) > 0 {
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
	if n.Msg.Method == protocol.NotificationCancelled {
		e.MCP.Cancelled = redact(n.Msg.Reason)
	}
	return e
}

// harTime is an ISO 8601 time with milliseconds and a zone, as HAR wants.
func harTime(t time.Time) string { return t.Format("2006-01-02T15:04:05.000Z07:00") }

// harHTTP is one recorded HTTP exchange.
func (s *Session) harHTTP(h *HTTPExchange) harEntry {
	e := h.Entry
	req := harRequest{Method: e.Method, URL: record.RedactURL(e.URL), HTTPVersion: "HTTP/1.1", Cookies: []struct{}{},
		Headers: harHeaders(e.RequestHeaders), QueryString: []harNV{}, HeadersSize: -1, BodySize: e.RequestBytes}
	mcp := harMCP{Direction: "client-to-server", Method: e.RPCMethod, Kind: e.RPCKind}
	var x *Exchange
	switch e.RPCKind {
	case "request":
		x = s.findHTTPRequest(e)
	case "response": // mcptui answering the server's question
		mcp.Direction = "server-to-client"
	}
	if e.RPCID != "" {
		mcp.ID = idValue(e.RPCID)
	}
	if body := s.httpBody(e, x); body != "" {
		req.PostData = &harPost{MimeType: "application/json", Params: []harNV{}, Text: body}
	}
	resp := harResponse{Status: e.HTTPStatus, StatusText: http.StatusText(e.HTTPStatus), HTTPVersion: "HTTP/1.1", Cookies: []struct{}{},
		Headers: harHeaders(e.ResponseHeaders), HeadersSize: -1, BodySize: -1}
	if e.Error != "" {
		resp.StatusText = redact(e.Error)
	}
	mime := "application/json"
	for _, hp := range e.ResponseHeaders {
		if strings.EqualFold(hp.Name, "Content-Type") {
			mime = hp.Value
		}
	}
	text := ""
	if x != nil && x.Response != nil {
		if strings.HasPrefix(mime, "text/event-stream") {
			for _, p := range x.Progress {
				text += "event: message\ndata: " + string(redactedJSON(p.Raw)) + "\n\n"
			}
			text += "event: message\ndata: " + string(redactedJSON(x.Response.Raw)) + "\n\n"
		} else {
			text = string(redactedJSON(x.Response.Raw))
		}
		if r := x.Response.Msg; r.Error != nil {
			mcp.Error = fmt.Sprintf("%d %s", r.Error.Code, redact(r.Error.Message))
		} else if r.ToolError {
			mcp.Error = "tool_error"
		}
	}
	if h.End != nil {
		resp.BodySize = int(h.End.Bytes)
		mcp.Messages = h.End.Messages
	}
	resp.Content = harContent{Size: len(text), MimeType: mime, Text: text}
	if resp.BodySize < 0 && len(text) > 0 {
		resp.BodySize = len(text)
	}
	wait, receive := e.DurationMs, 0.0
	if h.End != nil {
		if r := ms(h.End.Time.Sub(e.Time)) - wait; r > 0 {
			receive = r
		}
	}
	return harEntry{Pageref: "session", StartedDateTime: harTime(e.Time), Time: wait + receive, Request: req, Response: resp,
		Timings: harTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1, Send: 0, Wait: wait, Receive: receive}, MCP: mcp}
}

// findHTTPRequest is the client request an exchange carried: its id, sent
// closest to the exchange's start.
func (s *Session) findHTTPRequest(e *record.Entry) *Exchange {
	var best *Exchange
	for _, x := range s.Exchanges {
		if x.FromServer || x.Request.Msg.ID != e.RPCID {
			continue
		}
		if best == nil || absDur(x.Start().Sub(e.Time)) < absDur(best.Start().Sub(e.Time)) {
			best = x
		}
	}
	return best
}

// httpBody is the JSON-RPC message an exchange's request carried.
func (s *Session) httpBody(e *record.Entry, x *Exchange) string {
	switch {
	case x != nil:
		return string(redactedJSON(x.Request.Raw))
	case e.RPCKind == "response":
		for _, q := range s.Exchanges {
			if q.FromServer && q.Request.Msg.ID == e.RPCID && q.Response != nil {
				return string(redactedJSON(q.Response.Raw))
			}
		}
	case e.RPCKind == "notification":
		var best *Message
		for _, n := range s.Notifications {
			if !n.FromServer && n.Msg.Method == e.RPCMethod && (best == nil || absDur(n.Time.Sub(e.Time)) < absDur(best.Time.Sub(e.Time))) {
				best = n
			}
		}
		if best != nil {
			return string(redactedJSON(best.Raw))
		}
	}
	return ""
}

func harHeaders(h []record.HeaderPair) []harNV {
	out := []harNV{}
	for _, p := range h {
		out = append(out, harNV{p.Name, record.RedactRecordedHeader(p.Name, p.Value)})
	}
	return out
}

// idValue is an id's JSON text as HAR's _mcp.id shows it.
func idValue(id string) string {
	var s string
	if json.Unmarshal([]byte(id), &s) == nil {
		return s
	}
	return id
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
