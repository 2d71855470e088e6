// Command server is the minimal stdio MCP server every client in the
// benchmark talks to. It uses no SDK: one goroutine reads newline-delimited
// JSON-RPC from stdin and answers on stdout as fast as it can, flushing only
// when no more input is buffered, so pipelined requests get batched answers.
//
// It speaks the legacy handshake (initialize, notifications/initialized),
// echoing the protocol version the client asks for, and serves three tools:
//
//   - echo {"text": s}: answers with s as text content.
//   - blob {"bytes": n}: answers with n bytes of text content, streamed.
//   - flood {"bytes": n}: first writes one notification line of exactly n
//     bytes (streamed in chunks, never held in memory), then answers like
//     echo.
//
// Anything else with an id is answered with -32601; notifications are
// ignored. The server exits at EOF on stdin.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	s := &server{
		in:  bufio.NewReaderSize(os.Stdin, 256<<10),
		out: bufio.NewWriterSize(os.Stdout, 256<<10),
	}
	if err := s.serve(); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// server holds the buffered ends of the two pipes.
type server struct {
	in  *bufio.Reader
	out *bufio.Writer
	// long accumulates a line longer than the reader's buffer.
	long []byte
}

// message is the part of an incoming JSON-RPC message the server needs.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// serve reads lines until EOF and answers each request.
func (s *server) serve() error {
	for {
		line, err := s.readLine()
		if err == io.EOF {
			return s.out.Flush()
		}
		if err != nil {
			return err
		}
		if len(line) > 0 {
			if err := s.handle(line); err != nil {
				return err
			}
		}
		// Flush only when the client has nothing more queued: answers to
		// pipelined requests leave in one write.
		if s.in.Buffered() == 0 && s.out.Buffered() > 0 {
			if err := s.out.Flush(); err != nil {
				return err
			}
		}
	}
}

// readLine returns the next line without its line ending. The slice is valid
// until the next call.
func (s *server) readLine() ([]byte, error) {
	s.long = s.long[:0]
	for {
		chunk, err := s.in.ReadSlice('\n')
		switch err {
		case nil:
			if len(s.long) > 0 {
				s.long = append(s.long, chunk...)
				chunk = s.long
			}
			chunk = chunk[:len(chunk)-1]
			if n := len(chunk); n > 0 && chunk[n-1] == '\r' {
				chunk = chunk[:n-1]
			}
			return chunk, nil
		case bufio.ErrBufferFull:
			s.long = append(s.long, chunk...)
		default:
			return nil, err
		}
	}
}

// handle answers one message.
func (s *server) handle(line []byte) error {
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		return nil // not JSON: ignore, as a lenient server would
	}
	if len(m.ID) == 0 || string(m.ID) == "null" {
		return nil // a notification (initialized, cancelled): nothing to answer
	}
	switch m.Method {
	case "initialize":
		return s.initialize(m)
	case "ping":
		return s.result(m.ID, []byte(`{}`))
	case "tools/list":
		return s.result(m.ID, toolList)
	case "tools/call":
		return s.call(m)
	}
	return s.error(m.ID, -32601, "Method not found: "+m.Method)
}

// initialize answers the handshake with the version the client asked for.
func (s *server) initialize(m message) error {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(m.Params, &p)
	if p.ProtocolVersion == "" {
		p.ProtocolVersion = "2025-06-18"
	}
	v, _ := json.Marshal(p.ProtocolVersion)
	res := append([]byte(`{"protocolVersion":`), v...)
	res = append(res, `,"capabilities":{"tools":{}},"serverInfo":{"name":"bench-server","version":"1.0.0"}}`...)
	return s.result(m.ID, res)
}

// toolList is the answer to tools/list.
var toolList = []byte(`{"tools":[` +
	`{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}},` +
	`{"name":"blob","inputSchema":{"type":"object","properties":{"bytes":{"type":"integer"}}}},` +
	`{"name":"flood","inputSchema":{"type":"object","properties":{"bytes":{"type":"integer"}}}}]}`)

// call runs one tool.
func (s *server) call(m message) error {
	var p struct {
		Name      string `json:"name"`
		Arguments struct {
			Text  json.RawMessage `json:"text"`
			Bytes int64           `json:"bytes"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return s.error(m.ID, -32602, "Invalid params: "+err.Error())
	}
	switch p.Name {
	case "echo":
		return s.text(m.ID, p.Arguments.Text)
	case "blob":
		return s.blob(m.ID, p.Arguments.Bytes)
	case "flood":
		if err := s.flood(p.Arguments.Bytes); err != nil {
			return err
		}
		return s.text(m.ID, []byte(`"flooded"`))
	}
	return s.error(m.ID, -32602, "Unknown tool: "+p.Name)
}

// text answers with one text content item; quoted is a JSON string.
func (s *server) text(id, quoted json.RawMessage) error {
	if len(quoted) == 0 {
		quoted = []byte(`""`)
	}
	s.head(id)
	s.out.WriteString(`"result":{"content":[{"type":"text","text":`)
	s.out.Write(quoted)
	_, err := s.out.WriteString("}]}}\n")
	return err
}

// blob answers with n bytes of text, written in chunks.
func (s *server) blob(id json.RawMessage, n int64) error {
	s.head(id)
	s.out.WriteString(`"result":{"content":[{"type":"text","text":"`)
	if err := s.fill(n); err != nil {
		return err
	}
	_, err := s.out.WriteString("\"}]}}\n")
	if err != nil {
		return err
	}
	return s.out.Flush()
}

// flood writes one notifications/message line of exactly n bytes (newline
// excluded), streamed.
func (s *server) flood(n int64) error {
	const head = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"`
	const tail = `"}}`
	fill := n - int64(len(head)+len(tail))
	if fill < 0 {
		fill = 0
	}
	s.out.WriteString(head)
	if err := s.fill(fill); err != nil {
		return err
	}
	s.out.WriteString(tail + "\n")
	return s.out.Flush()
}

// chunk is what blob and flood stream, one buffer at a time.
var chunk = func() []byte {
	b := make([]byte, 64<<10)
	for i := range b {
		b[i] = 'x'
	}
	return b
}()

// fill writes n filler bytes.
func (s *server) fill(n int64) error {
	for n > 0 {
		k := int64(len(chunk))
		if n < k {
			k = n
		}
		if _, err := s.out.Write(chunk[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// head starts a response object up to and including the id member.
func (s *server) head(id json.RawMessage) {
	s.out.WriteString(`{"jsonrpc":"2.0","id":`)
	s.out.Write(id)
	s.out.WriteByte(',')
}

// result writes a whole result response.
func (s *server) result(id, res json.RawMessage) error {
	s.head(id)
	s.out.WriteString(`"result":`)
	s.out.Write(res)
	_, err := s.out.WriteString("}\n")
	return err
}

// error writes an error response.
func (s *server) error(id json.RawMessage, code int, msg string) error {
	m, _ := json.Marshal(msg)
	s.head(id)
	fmt.Fprintf(s.out, `"error":{"code":%d,"message":%s}}`+"\n", code, m)
	return nil
}
