package tap

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// maxFeedLine bounds one line of a feed a viewer reads (a line of the
// viewer limit, base64-encoded, and its entry).
const maxFeedLine = 4*DefaultMaxLineBytes + 1<<20

// Viewer is one watching connection to a tap, from the viewer's side.
type Viewer struct {
	c  net.Conn
	r  *bufio.Reader
	mu sync.Mutex
}

// Watch connects to the tap publishing on socket and asks for its feed.
func Watch(socket string) (*Viewer, error) {
	c, err := net.DialTimeout("unix", socket, 5*time.Second)
	if err != nil {
		return nil, fmt.Errorf("tap: attaching: %w", err)
	}
	v := &Viewer{c: c, r: bufio.NewReaderSize(c, 256<<10)}
	if err := v.Send(Request{Op: OpWatch}); err != nil {
		c.Close()
		return nil, err
	}
	return v, nil
}

// Next is the next line of the feed (a recording entry or a Message),
// without its newline.
func (v *Viewer) Next() ([]byte, error) {
	var line []byte
	for {
		part, err := v.r.ReadSlice('\n')
		line = append(line, part...)
		if err == nil {
			return line[:len(line)-1], nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		if len(line) > maxFeedLine {
			return nil, fmt.Errorf("tap: a feed line over %d bytes", maxFeedLine)
		}
	}
}

// Send sends the tap a request.
func (v *Viewer) Send(req Request) error {
	b, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("tap: %w", err)
	}
	if len(b) >= MaxRequestLine {
		return fmt.Errorf("tap: the %s request is %d bytes, over the tap's limit of %d", req.Op, len(b), MaxRequestLine)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, err := v.c.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("tap: sending %s: %w", req.Op, err)
	}
	return nil
}

// Close disconnects; the tap goes on.
func (v *Viewer) Close() error { return v.c.Close() }

// QueryInfo asks the tap on socket to describe itself.
func QueryInfo(socket string) (Info, error) {
	c, err := net.DialTimeout("unix", socket, 2*time.Second)
	if err != nil {
		return Info{}, fmt.Errorf("tap: %w", err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	b, _ := json.Marshal(Request{Op: OpInfo})
	if _, err := c.Write(append(b, '\n')); err != nil {
		return Info{}, fmt.Errorf("tap: %w", err)
	}
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return Info{}, fmt.Errorf("tap: %w", err)
	}
	var in Info
	if err := json.Unmarshal(line, &in); err != nil {
		return Info{}, fmt.Errorf("tap: info: %w", err)
	}
	return in, nil
}

// List describes the taps running in dir, oldest first. A socket no tap
// answers on is left alone (its tap may be starting, or gone).
func List(dir string) ([]Info, error) {
	if err := CheckDir(dir); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*"+SocketSuffix))
	if err != nil {
		return nil, fmt.Errorf("tap: %w", err)
	}
	var out []Info
	for _, p := range paths {
		in, err := QueryInfo(p)
		if err != nil {
			continue
		}
		if in.Name == "" {
			in.Name = strings.TrimSuffix(filepath.Base(p), SocketSuffix)
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out, nil
}
