// Package ceiling is a minimal hand-written MCP stdio client: the practical
// ceiling the benchmark compares the real clients with.
//
// It is what a careful programmer writes in an afternoon: a bufio reader on
// the child's stdout, encoding/json, one mutex around writes to stdin, and a
// map from request id to a buffered channel. Lines longer than the limit are
// discarded as they arrive (so it survives a 1 GiB line), but there are no
// timeouts, no cancellation notices, no progress and no server requests.
package ceiling

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
)

// DefaultMaxLine is the largest incoming line accepted when Dial is given 0.
const DefaultMaxLine = 16 << 20

// ErrClosed is returned by calls made after the connection stopped.
var ErrClosed = errors.New("ceiling: connection closed")

// Error is a JSON-RPC error response.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error formats the code and message.
func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// Client is one connection to a server process.
type Client struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser

	writeMu sync.Mutex

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan response
	err     error // set once the reader stopped

	done    chan struct{}
	maxLine int
}

// response is what the reader hands a waiting caller.
type response struct {
	result json.RawMessage
	err    error
}

// request is an outgoing JSON-RPC request or notification.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// incoming is the part of an incoming message the client looks at.
type incoming struct {
	ID     *int64          `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// Dial starts command with args; maxLine <= 0 means DefaultMaxLine.
func Dial(command string, args []string, maxLine int) (*Client, error) {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	cmd := exec.Command(command, args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Client{
		cmd:     cmd,
		stdin:   stdin,
		pending: make(map[int64]chan response),
		done:    make(chan struct{}),
		maxLine: maxLine,
	}
	go c.read(stdout)
	return c, nil
}

// Call sends a request and waits for its result.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()

	if err := c.write(request{JSONRPC: "2.0", ID: id, Method: method, Params: params}); err != nil {
		c.forget(id)
		return nil, err
	}
	select {
	case r := <-ch:
		return r.result, r.err
	case <-ctx.Done():
		c.forget(id)
		return nil, ctx.Err()
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	return c.write(request{JSONRPC: "2.0", Method: method, Params: params})
}

// Close closes the child's stdin and waits for it to exit.
func (c *Client) Close() error {
	c.stdin.Close()
	<-c.done
	return c.cmd.Wait()
}

// forget drops a pending id.
func (c *Client) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// write marshals v and writes it as one line.
func (c *Client) write(v request) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	c.writeMu.Lock()
	_, err = c.stdin.Write(b)
	c.writeMu.Unlock()
	return err
}

// read is the reader goroutine: it splits stdout into lines, discarding
// those over the limit, and hands responses to their callers.
func (c *Client) read(stdout io.Reader) {
	defer close(c.done)
	br := bufio.NewReaderSize(stdout, 64<<10)
	var long []byte // a line longer than the reader's buffer
	discarding := false
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !discarding && len(long)+len(chunk) > c.maxLine {
				discarding, long = true, nil
			}
			if !discarding {
				long = append(long, chunk...)
			}
			continue
		}
		if err != nil {
			c.stop(err)
			return
		}
		line := chunk[:len(chunk)-1]
		if discarding || len(long)+len(line) > c.maxLine {
			discarding, long = false, nil
			continue
		}
		if len(long) > 0 {
			line = append(long, line...)
		}
		c.dispatch(line)
		if cap(long) > 1<<20 {
			long = nil // do not keep a big buffer alive between big lines
		} else {
			long = long[:0]
		}
	}
}

// dispatch routes one line to the caller waiting for it.
func (c *Client) dispatch(line []byte) {
	var m incoming
	if err := json.Unmarshal(line, &m); err != nil || m.ID == nil || m.Method != "" {
		return // not a response: notifications and server requests are ignored
	}
	c.mu.Lock()
	ch, ok := c.pending[*m.ID]
	delete(c.pending, *m.ID)
	c.mu.Unlock()
	if !ok {
		return
	}
	if m.Error != nil {
		ch <- response{err: m.Error}
		return
	}
	ch <- response{result: m.Result}
}

// stop fails every pending and later call.
func (c *Client) stop(err error) {
	if err == io.EOF {
		err = ErrClosed
	}
	c.mu.Lock()
	c.err = err
	pending := c.pending
	c.pending = map[int64]chan response{}
	c.mu.Unlock()
	for _, ch := range pending {
		ch <- response{err: err}
	}
}
