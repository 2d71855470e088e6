package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Header names of the Streamable HTTP transport.
const (
	headerSessionID       = "Mcp-Session-Id"
	headerProtocolVersion = "MCP-Protocol-Version"
	headerMethod          = "Mcp-Method"
	headerName            = "Mcp-Name"
)

// metaProtocolVersion is the params._meta key that carries the protocol
// version of a 2026-07-28 request.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// statelessVersion is the first protocol version without initialize: from
// it on there is no session, no GET stream, and every POST names its
// method (Mcp-Method, Mcp-Name).
const statelessVersion = protocol.FirstStateless

// codeTransport is the JSON-RPC error code the bridge answers a request
// with when the HTTP exchange failed and the server sent no JSON-RPC
// error of its own (an implementation-defined server error).
const codeTransport = -32000

// maxLineBytes bounds one line from the client and one HTTP body.
const maxLineBytes = 64 << 20

// DefaultGetWait is how long the bridge waits for the answer to its GET
// (the legacy server-to-client stream) before it passes the initialize
// result on anyway.
const DefaultGetWait = 5 * time.Second

// Bridge is a stdio MCP server on one side (newline-delimited JSON-RPC
// read from Stdin and written to Stdout) and a Streamable HTTP client of
// the server at URL on the other.
//
// Every message from the client is POSTed to URL. A request's HTTP answer
// (a JSON body, or an SSE stream of server notifications, server requests
// and finally the response) is written to Stdout message by message; the
// client's answers to server requests are POSTed back like any message.
// Requests are POSTed concurrently, so a server request that arrives on
// one request's stream can be answered while that stream is still open.
// Notifications and responses are POSTed in order, one at a time, and
// whatever the server returns for them is dropped.
//
// Headers: Content-Type and Accept on every POST; MCP-Protocol-Version
// once known (the request's params._meta on 2026-07-28, otherwise the
// initialize result's protocolVersion); Mcp-Session-Id once the server
// gave one with the initialize result; Mcp-Method and Mcp-Name on
// 2026-07-28.
//
// On an initialize-era version the bridge opens the GET stream after a
// successful initialize (before passing its result on, so that nothing the
// server sends there is missed); a server that refuses it is used without
// one. An HTTP failure on a request is answered to the client as a
// JSON-RPC error for that request, so the client never waits for nothing.
//
// At EOF on Stdin the bridge abandons what is in flight, sends DELETE if
// the server gave a session id, and Run returns.
type Bridge struct {
	// URL is the server's MCP endpoint.
	URL string
	// HTTP sends the requests; nil means a client without timeouts (SSE
	// streams are long-lived).
	HTTP *http.Client
	// Stdin and Stdout are the client's side.
	Stdin  io.Reader
	Stdout io.Writer
	// Log receives one line per event worth knowing (HTTP failures,
	// dropped lines, the GET stream's fate); nil discards them.
	Log *log.Logger
	// GetWait bounds the wait for the GET stream's answer; 0 means
	// DefaultGetWait.
	GetWait time.Duration
	// Trace, when set, receives every message both ways, one per line:
	// "--> " and the line read from the client, "<-- " and the line
	// written to it.
	Trace io.Writer

	outMu   sync.Mutex // serialises writes to Stdout
	traceMu sync.Mutex // serialises writes to Trace

	mu        sync.Mutex
	sessionID string
	version   string

	wg sync.WaitGroup // POST and GET goroutines
}

// message is the part of a JSON-RPC message the bridge looks at.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// hasID reports whether the message carries an id (null counts as none).
func (m *message) hasID() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// params is the part of a request's params that sets headers.
type params struct {
	Meta map[string]json.RawMessage `json:"_meta"`
	Name string                     `json:"name"`
	URI  string                     `json:"uri"`
}

// Run relays until Stdin ends or ctx is done, then ends the session. It
// returns nil at EOF, or the error reading Stdin.
func (b *Bridge) Run(ctx context.Context) error {
	if b.HTTP == nil {
		b.HTTP = &http.Client{}
	}
	if b.GetWait <= 0 {
		b.GetWait = DefaultGetWait
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type read struct {
		line []byte
		err  error
	}
	lines := make(chan read)
	go func() {
		r := bufio.NewReaderSize(b.Stdin, 64<<10)
		for {
			line, err := readLine(r, maxLineBytes)
			select {
			case lines <- read{line, err}:
			case <-ctx.Done():
				return
			}
			if err != nil && !errors.Is(err, errLineTooLong) {
				return
			}
		}
	}()

	var readErr error
loop:
	for {
		select {
		case <-ctx.Done():
			b.logf("stopping: %v", context.Cause(ctx))
			break loop
		case rd := <-lines:
			if len(bytes.TrimSpace(rd.line)) > 0 {
				b.handle(ctx, rd.line)
			}
			if errors.Is(rd.err, errLineTooLong) {
				b.logf("stdin: a line over %d bytes: dropped", maxLineBytes)
				continue
			}
			if rd.err != nil {
				if !errors.Is(rd.err, io.EOF) {
					readErr = fmt.Errorf("bridge: reading stdin: %w", rd.err)
				}
				break loop
			}
		}
	}
	// The client has gone: what is in flight is of no use to anyone.
	cancel()
	b.wg.Wait()
	b.endSession()
	return readErr
}

// readLine reads one line without its end. A line over max bytes is read
// to its end and returned empty, with errLineTooLong.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > max {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong && err == nil {
			err = errLineTooLong
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// errLineTooLong reports a line from the client over maxLineBytes.
var errLineTooLong = errors.New("line too long")

// handle relays one line from the client.
func (b *Bridge) handle(ctx context.Context, line []byte) {
	line = bytes.TrimSpace(line)
	b.trace("--> ", line)
	if line[0] == '[' { // a batch (only before 2025-06-18): relayed as it is
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			b.request(ctx, line, &message{Method: "(batch)"})
		}()
		return
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		b.logf("stdin: a line that is not a JSON-RPC message (%v): answered -32700", err)
		b.write(errorResponse(json.RawMessage("null"), -32700, "Parse error: "+err.Error(), nil))
		return
	}
	switch {
	case m.Method == protocol.MethodInitialize && m.hasID():
		// Synchronous: what follows needs the session id and the version.
		b.request(ctx, line, &m)
	case m.Method != "" && m.hasID():
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			b.request(ctx, line, &m)
		}()
	default: // a notification, or the client's answer to a server request
		b.send(ctx, line, &m)
	}
}

// headers builds the headers of a POST carrying m, and notes the version
// m's _meta names.
func (b *Bridge) headers(m *message) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	var p params
	if len(m.Params) > 0 {
		_ = json.Unmarshal(m.Params, &p) // params that are not an object set no header
	}
	var metaVersion string
	if raw, ok := p.Meta[metaProtocolVersion]; ok {
		_ = json.Unmarshal(raw, &metaVersion)
	}
	b.mu.Lock()
	if metaVersion != "" {
		b.version = metaVersion
	}
	version, session := b.version, b.sessionID
	b.mu.Unlock()
	if metaVersion != "" {
		version = metaVersion
	}
	if version != "" {
		h.Set(headerProtocolVersion, version)
	}
	if session != "" {
		h.Set(headerSessionID, session)
	}
	if version >= statelessVersion && m.Method != "" && m.Method != "(batch)" {
		h.Set(headerMethod, m.Method)
		switch m.Method {
		case protocol.MethodCallTool, protocol.MethodGetPrompt:
			if p.Name != "" {
				h.Set(headerName, p.Name)
			}
		case protocol.MethodReadResource:
			if p.URI != "" {
				h.Set(headerName, p.URI)
			}
		}
	}
	return h
}

// post sends body.
func (b *Bridge) post(ctx context.Context, body []byte, h http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("bridge: building POST: %w", err)
	}
	req.Header = h
	resp, err := b.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("bridge: POST %s: %w", b.URL, err)
	}
	return resp, nil
}

// send POSTs a notification or a response and drops what comes back.
func (b *Bridge) send(ctx context.Context, line []byte, m *message) {
	resp, err := b.post(ctx, line, b.headers(m))
	if err != nil {
		b.logf("%v", err)
		return
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxLineBytes))
	if resp.StatusCode >= 300 {
		what := m.Method
		if what == "" {
			what = "response " + string(m.ID)
		}
		b.logf("POST %s: HTTP %d", what, resp.StatusCode)
	}
}

// request POSTs a request and relays the answer. A failure that leaves the
// client without a response is answered with a JSON-RPC error.
func (b *Bridge) request(ctx context.Context, line []byte, m *message) {
	resp, err := b.post(ctx, line, b.headers(m))
	if err != nil {
		if ctx.Err() == nil {
			b.logf("%v", err)
			b.fail(m, codeTransport, err.Error(), nil)
		}
		return
	}
	defer resp.Body.Close()
	if id := resp.Header.Get(headerSessionID); id != "" && m.Method == protocol.MethodInitialize {
		// A session is given with the initialize result, and only then.
		b.mu.Lock()
		b.sessionID = id
		b.mu.Unlock()
		b.logf("session %s", id)
	}

	answered := false
	emit := func(msg []byte) {
		var r message
		if json.Unmarshal(msg, &r) == nil && r.Method == "" && m.hasID() {
			if !r.hasID() && len(r.Error) > 0 {
				// An error the server could not tie to a request (id null):
				// over HTTP it is the answer to this POST.
				msg = withID(msg, m.ID)
				r.ID = m.ID
			}
			if bytes.Equal(r.ID, m.ID) {
				answered = true
				if m.Method == protocol.MethodInitialize && len(r.Result) > 0 {
					release := b.initialized(ctx, r.Result)
					b.write(msg)
					release()
					return
				}
			}
		}
		b.write(msg)
	}

	ct := mediaType(resp.Header.Get("Content-Type"))
	switch {
	case ct == "text/event-stream":
		err = readEvents(resp.Body, func(ev event) error {
			if strings.TrimSpace(ev.Data) == "" {
				return nil // priming events carry no message
			}
			if !json.Valid([]byte(ev.Data)) {
				b.logf("POST %s: an SSE event that is not JSON: dropped", m.Method)
				return nil
			}
			emit([]byte(ev.Data))
			return nil
		})
		if err != nil && ctx.Err() == nil {
			b.logf("POST %s: %v", m.Method, err)
		}
	case resp.StatusCode == http.StatusAccepted:
		// No body: any answer will come on the GET stream.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxLineBytes))
		return
	default:
		body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxLineBytes))
		if rerr != nil {
			if ctx.Err() != nil {
				return
			}
			b.logf("POST %s: reading the answer: %v", m.Method, rerr)
		}
		for _, msg := range jsonrpcMessages(body) {
			emit(msg)
		}
		if !answered && resp.StatusCode >= 300 {
			b.fail(m, codeTransport, fmt.Sprintf("HTTP %d from %s", resp.StatusCode, b.URL),
				map[string]any{"status": resp.StatusCode, "body": string(body)})
			return
		}
	}
	if !answered && m.hasID() && ctx.Err() == nil {
		b.logf("POST %s: HTTP %d, no response for id %s", m.Method, resp.StatusCode, m.ID)
		b.fail(m, codeTransport, fmt.Sprintf("The server's answer (HTTP %d) held no response to this request", resp.StatusCode),
			map[string]any{"status": resp.StatusCode})
	}
}

// fail answers the client's request m with a JSON-RPC error.
func (b *Bridge) fail(m *message, code int, msg string, data any) {
	if !m.hasID() {
		return
	}
	b.write(errorResponse(m.ID, code, msg, data))
}

// initialized notes the version an initialize result names and, on an
// initialize-era version, opens the GET stream. Nothing from the stream
// reaches the client before the returned release is called (once the
// initialize result has been written).
func (b *Bridge) initialized(ctx context.Context, result json.RawMessage) (release func()) {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(result, &r)
	if r.ProtocolVersion == "" {
		return func() {}
	}
	b.mu.Lock()
	b.version = r.ProtocolVersion
	b.mu.Unlock()
	if r.ProtocolVersion >= statelessVersion {
		return func() {}
	}
	gate := make(chan struct{})
	b.openStream(ctx, gate)
	var once sync.Once
	return func() { once.Do(func() { close(gate) }) }
}

// openStream opens the GET stream and relays what arrives on it, once gate
// is closed, until the server ends it or the bridge stops. It returns once
// the server has answered the GET, or after GetWait.
func (b *Bridge) openStream(ctx context.Context, gate <-chan struct{}) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.URL, nil)
	if err != nil {
		b.logf("GET stream: %v", err)
		return
	}
	req.Header.Set("Accept", "text/event-stream")
	b.mu.Lock()
	if b.version != "" {
		req.Header.Set(headerProtocolVersion, b.version)
	}
	if b.sessionID != "" {
		req.Header.Set(headerSessionID, b.sessionID)
	}
	b.mu.Unlock()

	answered := make(chan struct{})
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		resp, err := b.HTTP.Do(req)
		if err != nil {
			close(answered)
			if ctx.Err() == nil {
				b.logf("GET stream: %v", err)
			}
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
			close(answered)
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			b.logf("GET stream: not offered (HTTP %d, %s); going on without it", resp.StatusCode, resp.Header.Get("Content-Type"))
			return
		}
		close(answered)
		b.logf("GET stream: open")
		err = readEvents(resp.Body, func(ev event) error {
			if strings.TrimSpace(ev.Data) == "" {
				return nil
			}
			if !json.Valid([]byte(ev.Data)) {
				b.logf("GET stream: an SSE event that is not JSON: dropped")
				return nil
			}
			select {
			case <-gate:
			case <-ctx.Done():
				return ctx.Err()
			}
			b.write([]byte(ev.Data))
			return nil
		})
		switch {
		case ctx.Err() != nil:
		case err != nil:
			b.logf("GET stream: %v", err)
		default:
			b.logf("GET stream: ended by the server")
		}
	}()
	t := time.NewTimer(b.GetWait)
	defer t.Stop()
	select {
	case <-answered:
	case <-t.C:
		b.logf("GET stream: no answer in %v; going on", b.GetWait)
	case <-ctx.Done():
	}
}

// endSession sends DELETE when the server gave a session id.
func (b *Bridge) endSession() {
	b.mu.Lock()
	session, version := b.sessionID, b.version
	b.mu.Unlock()
	if session == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, b.URL, nil)
	if err != nil {
		b.logf("DELETE: %v", err)
		return
	}
	req.Header.Set(headerSessionID, session)
	if version != "" {
		req.Header.Set(headerProtocolVersion, version)
	}
	resp, err := b.HTTP.Do(req)
	if err != nil {
		b.logf("DELETE: %v", err)
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	b.logf("DELETE session %s: HTTP %d", session, resp.StatusCode)
}

// write sends one message to the client as one line.
func (b *Bridge) write(msg []byte) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, msg); err != nil {
		b.logf("stdout: dropping a message that is not JSON: %v", err)
		return
	}
	b.trace("<-- ", buf.Bytes())
	buf.WriteByte('\n')
	b.outMu.Lock()
	defer b.outMu.Unlock()
	if _, err := b.Stdout.Write(buf.Bytes()); err != nil {
		b.logf("stdout: %v", err)
	}
}

// trace writes one message to Trace.
func (b *Bridge) trace(dir string, line []byte) {
	if b.Trace == nil {
		return
	}
	b.traceMu.Lock()
	defer b.traceMu.Unlock()
	_, _ = fmt.Fprintf(b.Trace, "%s%s\n", dir, line)
}

func (b *Bridge) logf(format string, args ...any) {
	if b.Log != nil {
		b.Log.Printf(format, args...)
	}
}

// mediaType is a Content-Type's media type, lower case ("" when absent or
// malformed).
func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return strings.ToLower(mt)
}

// jsonrpcMessages splits a JSON body into messages: an object is one, an
// array (a batch) is each of its elements. Anything else is none.
func jsonrpcMessages(body []byte) [][]byte {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || !json.Valid(body) {
		return nil
	}
	switch body[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) != nil {
			return nil
		}
		if _, ok := m["jsonrpc"]; !ok {
			return nil // JSON, but not JSON-RPC (an OAuth error, say)
		}
		return [][]byte{body}
	case '[':
		var all []json.RawMessage
		if json.Unmarshal(body, &all) != nil {
			return nil
		}
		out := make([][]byte, 0, len(all))
		for _, m := range all {
			out = append(out, jsonrpcMessages(m)...)
		}
		return out
	}
	return nil
}

// withID returns msg (a JSON object) with its id replaced.
func withID(msg []byte, id json.RawMessage) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return msg
	}
	m["id"] = id
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return out
}

// errorResponse is a JSON-RPC error response.
func errorResponse(id json.RawMessage, code int, msg string, data any) []byte {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	out, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
	if err != nil { // data is always marshallable here
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, id, code, msg)
	}
	return out
}
