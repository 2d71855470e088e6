package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/lines"
	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/model"
)

// Serve acts as the server of a recording, on stdio, for a client under
// test: it reads newline-delimited JSON-RPC from in and answers each request
// with what the recorded server answered to the recorded request of the
// same method and params. It reads lines of at most maxLine bytes (0:
// conn's default, 16 MiB), as the recorded server's client would: a longer
// one is skipped as it streams by, never held, and noted on log.
//
// Matching ignores params._meta (ids, progress tokens, client identity) and
// the 2026-07-28 round fields inputResponses and requestState; recorded
// requests are used in order, the last one again once they run out.
// initialize, server/discover and ping match by method alone (a client's
// capabilities and identity differ from the recorded client's). A request
// with no recorded match gets -32601 (the method was never recorded) or
// -32602 naming the recorded params.
//
// Before the response it replays what the server sent while that request
// was in flight: progress notifications with the client's progress token,
// subscription events with the client's subscription id, log messages and
// other notifications sent while it was the only request in flight, and
// server-to-client requests (sampling, elicitation, roots), whose answers it
// waits for. The response gets the client's id; everything else is written
// byte for byte as recorded. Notes about what it could not match go to log
// (escaped). Serve returns when in ends or ctx is done.
func Serve(ctx context.Context, rec *record.Recording, maxLine int, in io.Reader, out io.Writer, log io.Writer) error {
	s := newServer(rec, out, log)
	if maxLine <= 0 {
		maxLine = record.DefaultMaxLineBytes
	}
	s.maxLine = maxLine
	return s.serve(ctx, in)
}

// ServeFile is Serve on the recording at path, read with the same line
// limit (see record.ReadLimited).
func ServeFile(ctx context.Context, path string, maxLine int, in io.Reader, out io.Writer, log io.Writer) error {
	rec, err := record.OpenLimited(path, maxLine)
	if err != nil {
		return err
	}
	return Serve(ctx, rec, maxLine, in, out, log)
}

// exchange is one recorded request and what the server sent for it.
type exchange struct {
	method string
	params json.RawMessage
	id     json.RawMessage
	token  json.RawMessage // params._meta.progressToken
	// items are the lines the server sent while the request was in
	// flight, in order; response is the final one (nil if none came).
	items    []item
	response []byte
	line     int
}

type item struct {
	line      []byte
	isRequest bool
	id        json.RawMessage
}

// handshake methods match by method alone.
var handshake = map[string]bool{protocol.MethodInitialize: true, protocol.MethodDiscover: true, protocol.MethodPing: true}

type server struct {
	byKey    map[string][]*exchange
	byMethod map[string][]*exchange
	used     map[string]int

	mu      sync.Mutex // guards used, waiters
	writeMu sync.Mutex
	out     io.Writer
	log     io.Writer
	maxLine int // longest line read from the client
	waiters map[string]chan struct{}
	wg      sync.WaitGroup
}

func newServer(rec *record.Recording, out, log io.Writer) *server {
	s := &server{byKey: map[string][]*exchange{}, byMethod: map[string][]*exchange{}, used: map[string]int{},
		out: out, log: log, waiters: map[string]chan struct{}{}}
	open := map[string]*exchange{}
	var order []*exchange // open, oldest first
	for i := range rec.Entries {
		e := &rec.Entries[i]
		if e.Type != record.TypeSent && e.Type != record.TypeReceived {
			continue
		}
		var m message
		if json.Unmarshal(e.Msg, &m) != nil || e.Msg == nil {
			continue
		}
		switch {
		case e.Type == record.TypeSent && m.isRequest():
			x := &exchange{method: m.Method, params: m.Params, id: m.ID, token: progressToken(m.Params), line: e.LineNo}
			open[rpccall.MatchKey(m.ID)] = x
			order = append(order, x)
			key := matchKey(m.Method, m.Params)
			s.byKey[key] = append(s.byKey[key], x)
			s.byMethod[m.Method] = append(s.byMethod[m.Method], x)
		case e.Type == record.TypeReceived && m.isResponse():
			if x := open[rpccall.MatchKey(m.ID)]; x != nil {
				x.response = e.Msg
				delete(open, rpccall.MatchKey(m.ID))
				order = remove(order, x)
			}
		case e.Type == record.TypeReceived:
			if x := owner(m, open, order); x != nil {
				x.items = append(x.items, item{line: e.Msg, isRequest: m.isRequest(), id: m.ID})
			}
		}
	}
	return s
}

func remove(xs []*exchange, x *exchange) []*exchange {
	for i, y := range xs {
		if y == x {
			return append(xs[:i:i], xs[i+1:]...)
		}
	}
	return xs
}

// owner finds the request a server message belongs to: by progress token,
// by subscription id, or the only (else the newest) request in flight.
func owner(m message, open map[string]*exchange, order []*exchange) *exchange {
	if tok := m.paramMember("progressToken"); tok != nil {
		for _, x := range order {
			if bytes.Equal(x.token, tok) {
				return x
			}
		}
	}
	if sub := m.metaMember("io.modelcontextprotocol/subscriptionId"); sub != nil {
		if x := open[rpccall.MatchKey(sub)]; x != nil {
			return x
		}
	}
	if len(order) == 1 || (m.isRequest() && len(order) > 0) {
		return order[len(order)-1]
	}
	return nil
}

// message is the envelope of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (m message) hasID() bool      { return len(m.ID) > 0 && string(m.ID) != "null" }
func (m message) isRequest() bool  { return m.hasID() && m.Method != "" }
func (m message) isResponse() bool { return m.hasID() && m.Method == "" }

func (m message) paramMember(name string) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(m.Params, &p) != nil {
		return nil
	}
	return p[name]
}

func (m message) metaMember(name string) json.RawMessage {
	var meta map[string]json.RawMessage
	if json.Unmarshal(m.paramMember("_meta"), &meta) != nil {
		return nil
	}
	return meta[name]
}

func progressToken(params json.RawMessage) json.RawMessage {
	return message{Params: params}.metaMember("progressToken")
}

// matchKey is a request's identity for matching: the method and the params
// without _meta, inputResponses and requestState, canonical.
func matchKey(method string, params json.RawMessage) string {
	return method + "\x00" + canonicalParams(params)
}

func canonicalParams(params json.RawMessage) string {
	if len(params) == 0 || string(params) == "null" {
		return "{}"
	}
	d := json.NewDecoder(bytes.NewReader(params))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return string(params)
	}
	if obj, ok := v.(map[string]any); ok {
		delete(obj, "_meta")
		delete(obj, "inputResponses")
		delete(obj, "requestState")
	}
	b, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return string(params)
	}
	return string(b)
}

func (s *server) serve(ctx context.Context, in io.Reader) error {
	// At the end of input, replays still waiting for an answer stop.
	ctx, cancel := context.WithCancel(ctx)
	defer s.wg.Wait()
	defer cancel()
	fromClient := make(chan []byte)
	errc := make(chan error, 1)
	go func() {
		lr := lines.NewReader(in, s.maxLine)
		for {
			line, size, err := lr.Next()
			if err == lines.ErrTooLong {
				s.note("a line of %s from the client is over the %s limit: discarded", model.FormatSize(size), model.FormatSize(s.maxLine))
				continue
			}
			if len(bytes.TrimSpace(line)) > 0 {
				select {
				case fromClient <- bytes.TrimSpace(line):
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				errc <- err
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-errc:
			return err
		case line := <-fromClient:
			s.handle(ctx, line)
		}
	}
}

// handle routes one message from the client.
func (s *server) handle(ctx context.Context, line []byte) {
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		s.write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`))
		return
	}
	switch {
	case m.isResponse():
		s.mu.Lock()
		if w, ok := s.waiters[string(m.ID)]; ok {
			close(w)
			delete(s.waiters, string(m.ID))
		}
		s.mu.Unlock()
	case m.isRequest():
		x := s.match(m)
		if x == nil {
			s.noMatch(m)
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.answer(ctx, m, x)
		}()
	}
	// Notifications from the client (initialized, cancelled, ...) need
	// nothing: the recorded server's reaction to them is in the exchanges.
}

// match finds the recorded exchange for a request and marks it used.
func (s *server) match(m message) *exchange {
	key := matchKey(m.Method, m.Params)
	list := s.byKey[key]
	if len(list) == 0 && handshake[m.Method] {
		key, list = "method\x00"+m.Method, s.byMethod[m.Method]
	}
	if len(list) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.used[key]
	if i < len(list)-1 {
		s.used[key] = i + 1
	}
	return list[min(i, len(list)-1)]
}

// noMatch answers a request that was never recorded.
func (s *server) noMatch(m message) {
	recorded := s.byMethod[m.Method]
	var e map[string]any
	if len(recorded) == 0 {
		e = map[string]any{"code": -32601, "message": "replay: the recording has no " + m.Method + " request"}
	} else {
		var params []json.RawMessage
		for _, x := range recorded[:min(len(recorded), 5)] {
			params = append(params, json.RawMessage(canonicalParams(x.params)))
		}
		e = map[string]any{"code": -32602, "message": "replay: no recorded " + m.Method + " has these params",
			"data": map[string]any{"recorded": params}}
	}
	s.note("no match for %s %s", m.Method, canonicalParams(m.Params))
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": e})
	s.write(b)
}

// answer replays an exchange for the client's request m.
func (s *server) answer(ctx context.Context, m message, x *exchange) {
	token := progressToken(m.Params)
	for _, it := range x.items {
		line := it.line
		if token != nil && x.token != nil && !bytes.Equal(token, x.token) {
			line = replaceMember(line, []string{"params", "progressToken"}, token)
		}
		if !bytes.Equal(m.ID, x.id) {
			line = replaceMember(line, []string{"params", "_meta", "io.modelcontextprotocol/subscriptionId"}, m.ID)
		}
		if !it.isRequest {
			s.write(line)
			continue
		}
		// A server request: send it and wait for the client's answer.
		w := make(chan struct{})
		s.mu.Lock()
		s.waiters[string(it.id)] = w
		s.mu.Unlock()
		s.write(line)
		select {
		case <-w:
		case <-ctx.Done():
			return
		}
	}
	if x.response == nil {
		return // the recorded server never answered it
	}
	resp := x.response
	if !bytes.Equal(m.ID, x.id) {
		resp = replaceMember(resp, []string{"id"}, m.ID)
	}
	s.write(resp)
}

func (s *server) write(line []byte) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	b := make([]byte, 0, len(line)+1)
	b = append(append(b, line...), '\n')
	_, _ = s.out.Write(b)
}

func (s *server) note(format string, a ...any) {
	if s.log == nil {
		return
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	fmt.Fprintf(s.log, "mcptui replay: %s\n", inert.Line(fmt.Sprintf(format, a...)))
}

// replaceMember returns line with the value at path (object members)
// replaced by value, every other byte kept; line unchanged when the path is
// absent or line is not JSON.
func replaceMember(line []byte, path []string, value []byte) []byte {
	if !json.Valid(line) {
		return line
	}
	start, end, ok := jsonscan.Path(line, path...)
	if !ok {
		return line
	}
	out := make([]byte, 0, len(line)-(end-start)+len(value))
	out = append(out, line[:start]...)
	out = append(out, value...)
	return append(out, line[end:]...)
}
