package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// wire sits between the streams given to Serve and the go-sdk transport and
// watches the JSON-RPC lines go by. It is hand-written because go-sdk v1.8.0
// answers a request even after the client cancelled it; the spec says a
// server SHOULD NOT. So wire remembers which requests are in flight, marks
// the ones named by notifications/cancelled, and drops their responses.
// subscriptions/listen is exempt: its terminal result after a cancel is the
// normal way a 2026-07-28 subscription ends.
//
// It also keeps malformed input away from go-sdk, which ends the whole
// session on the first line that is not a JSON-RPC message: such a line is
// answered with -32700 (not JSON) or -32600 (not a valid message, or a
// batch, which 2025-06-18 and later do not allow) and skipped, as JSON-RPC
// says, with a line on stderr.
//
// Finally it implements the `exit` tool under a Config.Exit that returns:
// after halt, nothing more is written and input reads as EOF.
type wire struct {
	mu        sync.Mutex
	inflight  map[string]string // request id (see valueKey) → method
	cancelled map[string]bool   // ids cancelled while in flight
	halted    bool
	pr        *io.PipeReader
	outMu     sync.Mutex // one message at a time on out
	out       io.Writer
	report    func(format string, args ...any) // stderr chatter
}

func newWire(out io.Writer, report func(format string, args ...any)) *wire {
	return &wire{inflight: map[string]string{}, cancelled: map[string]bool{}, out: out, report: report}
}

// reader returns the stream the transport reads: the valid lines of in,
// each observed before the SDK sees it.
func (w *wire) reader(in io.Reader) io.ReadCloser {
	pr, pw := io.Pipe()
	w.mu.Lock()
	w.pr = pr
	w.mu.Unlock()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, tooLong, err := readLine(br, maxLine)
			if tooLong {
				w.refuse(nil, -32600, fmt.Sprintf("Invalid Request: a line longer than %d bytes", maxLine))
			} else if len(bytes.TrimSpace(line)) > 0 && w.admit(line) {
				if _, werr := pw.Write(line); werr != nil {
					return // the transport closed its end
				}
			}
			if err != nil {
				pw.CloseWithError(err) // io.EOF reads as a clean end
				return
			}
		}
	}()
	return pr
}

// maxLine is the longest input line accepted: go-sdk's own limit, which
// would otherwise end the session.
const maxLine = mcp.DefaultMaxLineLength

// readLine reads one line, newline included. A line longer than limit is
// read to its end and dropped: tooLong reports it, and line is nil.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}

// writer returns the stream the transport writes. go-sdk writes each
// message, newline included, in one Write call.
func (w *wire) writer() io.WriteCloser { return wireWriter{w} }

type wireWriter struct{ w *wire }

func (ww wireWriter) Write(p []byte) (int, error) {
	if ww.w.dropOut(p) {
		return len(p), nil
	}
	return ww.w.write(p)
}

func (wireWriter) Close() error { return nil } // Serve's caller owns out

func (w *wire) write(p []byte) (int, error) {
	w.outMu.Lock()
	defer w.outMu.Unlock()
	return w.out.Write(p)
}

// admit checks that line is one JSON-RPC message go-sdk can take, records
// it (observeIn), and reports whether to pass it on. A line it refuses is
// answered with an error here.
func (w *wire) admit(line []byte) bool {
	trimmed := bytes.TrimSpace(line)
	if !json.Valid(trimmed) {
		w.refuse(nil, -32700, "Parse error: the line is not JSON")
		return false
	}
	if trimmed[0] == '[' {
		w.refuse(nil, -32600, "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 and later)")
		return false
	}
	var msg struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
	}
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &msg) != nil {
		w.refuse(nil, -32600, "Invalid Request: a message must be a JSON object")
		return false
	}
	id := bytes.TrimSpace(msg.ID)
	validID := len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9')
	var replyTo json.RawMessage
	if validID {
		replyTo = id
	}
	switch {
	case len(id) > 0 && !validID && !bytes.Equal(id, []byte("null")):
		w.refuse(nil, -32600, "Invalid Request: an id must be a string or a number")
	case msg.JSONRPC == nil || *msg.JSONRPC != "2.0":
		w.refuse(replyTo, -32600, `Invalid Request: "jsonrpc" must be "2.0"`)
	case len(msg.Method) > 0 && msg.Method[0] != '"':
		w.refuse(replyTo, -32600, "Invalid Request: the method must be a string")
	case len(msg.Method) == 0 && !validID:
		w.refuse(nil, -32600, "Invalid Request: neither a request, a notification nor a response")
	default:
		w.observeIn(trimmed)
		return true
	}
	return false
}

// refuse answers a line that never reached go-sdk.
func (w *wire) refuse(id json.RawMessage, code int, message string) {
	w.report("refused an input line: %s", message)
	if id == nil {
		id = json.RawMessage("null")
	}
	resp, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": message},
	})
	w.mu.Lock()
	halted := w.halted
	w.mu.Unlock()
	if !halted {
		_, _ = w.write(append(resp, '\n'))
	}
}

// halt stops all output and makes the input read as EOF.
func (w *wire) halt() {
	w.mu.Lock()
	w.halted = true
	pr := w.pr
	w.mu.Unlock()
	if pr != nil {
		pr.CloseWithError(io.EOF)
	}
}

// observeIn records requests and cancellations coming from the client.
func (w *wire) observeIn(line []byte) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method == "" {
		return // a response to one of our requests, a batch, or garbage
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case len(msg.ID) > 0:
		k := valueKey(msg.ID)
		w.inflight[k] = msg.Method
		delete(w.cancelled, k)
	case msg.Method == protocol.NotificationCancelled:
		k := valueKey(msg.Params.RequestID)
		if m, ok := w.inflight[k]; ok && m != protocol.MethodListen {
			w.cancelled[k] = true
		}
	}
}

// dropOut reports whether the outgoing message p must not be written, and
// forgets the request it answers.
func (w *wire) dropOut(p []byte) bool {
	w.mu.Lock()
	halted := w.halted
	w.mu.Unlock()
	if halted {
		return true
	}
	id, ok := responseID(p)
	if !ok {
		return false
	}
	k := valueKey(id)
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.inflight, k)
	drop := w.cancelled[k]
	delete(w.cancelled, k)
	return drop
}

// responseID returns the id of p if p is a JSON-RPC response. It reads only
// the first members: go-sdk writes "jsonrpc", "id", "method" in that order,
// so a large result is never scanned.
func responseID(p []byte) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(p))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var id json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		switch t {
		case "jsonrpc":
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				return nil, false
			}
		case "id":
			if dec.Decode(&id) != nil {
				return nil, false
			}
		case "method":
			return nil, false
		default: // "result" or "error": a response, if it has an id
			return id, len(id) > 0
		}
	}
	return id, len(id) > 0
}

// valueKey normalises a JSON-RPC id so that 7, 7.0 and "7" compare as the
// client meant them: numbers by value, strings as strings.
func valueKey(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return "s:" + s
		}
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return "r:" + string(raw)
}
