package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestIDKey(t *testing.T) {
	for _, tc := range []struct{ a, b string }{{`7`, `7.0`}, {`7`, ` 7 `}, {`"a"`, `"a"`}, {`-1`, `-1e0`}} {
		if valueKey(json.RawMessage(tc.a)) != valueKey(json.RawMessage(tc.b)) {
			t.Errorf("%s and %s should be the same id", tc.a, tc.b)
		}
	}
	if valueKey(json.RawMessage(`7`)) == valueKey(json.RawMessage(`"7"`)) {
		t.Errorf(`7 and "7" are different ids`)
	}
}

func TestResponseID(t *testing.T) {
	for _, tc := range []struct {
		line string
		id   string
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, "3", true},
		{`{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}}`, `"x"`, true},
		{`{"jsonrpc":"2.0","id":4,"method":"roots/list"}`, "", false},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`, "", false},
		{`[1]`, "", false},
		{`not json`, "", false},
		{`{"jsonrpc":"2.0","id":5,"result":"` + strings.Repeat("x", 1<<20) + `"}`, "5", true},
	} {
		id, ok := responseID([]byte(tc.line))
		if ok != tc.ok || string(id) != tc.id {
			t.Errorf("responseID(%.60s) = %s, %v; want %s, %v", tc.line, id, ok, tc.id, tc.ok)
		}
	}
}

// TestWireDropsCancelledResponses checks the by-hand cancellation rule.
func TestWireDropsCancelledResponses(t *testing.T) {
	var out bytes.Buffer
	w := newWire(&out, func(string, ...any) {})
	in := func(line string) bool { return w.admit([]byte(line)) }
	resp := func(id string) bool { return w.dropOut([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`)) }

	in(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`)
	in(`{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{}}`)
	in(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}`)
	in(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	in(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`)
	in(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`) // not in flight: ignored
	if !resp("1") {
		t.Errorf("the answer to a cancelled call was written")
	}
	if resp(`"L"`) {
		t.Errorf("the terminal result of a cancelled listen was dropped")
	}
	if resp("3") || resp("99") {
		t.Errorf("an answer to a live call was dropped")
	}
	// A reused id after the cancelled call ended is a new call.
	in(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`)
	if resp("1") {
		t.Errorf("the answer to a new call with a reused id was dropped")
	}
	// Notifications and server requests always pass.
	if w.dropOut([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`)) {
		t.Errorf("a notification was dropped")
	}
	if out.Len() != 0 {
		t.Errorf("wire wrote %q", out.String())
	}
	w.halt()
	if !w.dropOut([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`)) {
		t.Errorf("after halt, output should stop")
	}
}

func TestWireRefusesMalformedLines(t *testing.T) {
	var out bytes.Buffer
	var reports []string
	w := newWire(&out, func(f string, a ...any) { reports = append(reports, f) })
	for _, tc := range []struct {
		line string
		code int
		id   any
	}{
		{`{oops`, -32700, nil},
		{`[{"jsonrpc":"2.0","id":1,"method":"x"}]`, -32600, nil},
		{`"just a string"`, -32600, nil},
		{`{"id":2,"method":"x"}`, -32600, float64(2)},
		{`{"jsonrpc":"2.0","id":true,"method":"x"}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":"s","method":5}`, -32600, "s"},
		{`{"jsonrpc":"2.0","result":{}}`, -32600, nil},
	} {
		out.Reset()
		if w.admit([]byte(tc.line)) {
			t.Errorf("admitted %s", tc.line)
			continue
		}
		var resp struct {
			ID    any `json:"id"`
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(out.Bytes(), &resp); err != nil || resp.Error.Code != tc.code || resp.ID != tc.id {
			t.Errorf("%s: answered %q (%v)", tc.line, out.String(), err)
		}
	}
	if len(reports) != 7 {
		t.Errorf("%d stderr reports, want 7", len(reports))
	}
	for _, ok := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"abc","result":{}}`,
		`{"jsonrpc":"2.0","id":-4,"error":{"code":1,"message":"m"}}`,
	} {
		if !w.admit([]byte(ok)) {
			t.Errorf("refused %s", ok)
		}
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 100)
	br := bufio.NewReaderSize(strings.NewReader("short\n"+long+"\nnext\nlast"), 16)
	var got []string
	for {
		line, tooLong, err := readLine(br, 50)
		if tooLong {
			got = append(got, "TOO LONG")
		} else {
			got = append(got, string(line))
		}
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
	}
	if want := []string{"short\n", "TOO LONG", "next\n", "last"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines = %q, want %q", got, want)
	}
}

// pipeServer runs Serve in this process over pipes.
type pipeServer struct {
	in     *io.PipeWriter
	lines  chan string
	done   chan error
	stderr *stderrLog
}

func startInProcess(t *testing.T, ctx context.Context, cfg Config) *pipeServer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &pipeServer{in: inW, lines: make(chan string, 100), done: make(chan error, 1), stderr: newStderrLog()}
	go func() {
		p.done <- cfg.Serve(ctx, inR, outW, p.stderr)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *pipeServer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (p *pipeServer) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return")
		return nil
	}
}

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func TestServeInProcess(t *testing.T) {
	t.Run("eof", func(t *testing.T) {
		p := startInProcess(t, context.Background(), Config{})
		p.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"in-process"},`+modernMeta+`}}`)
		if line := <-p.lines; !strings.Contains(line, `"text":"in-process"`) {
			t.Errorf("echo: %s", line)
		}
		p.in.Close()
		if err := p.wait(t); err != nil {
			t.Errorf("Serve after EOF: %v", err)
		}
		p.stderr.waitLine(t, "input closed; bye")
	})
	t.Run("context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		p := startInProcess(t, ctx, Config{})
		p.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"seconds":600},`+modernMeta+`}}`)
		p.stderr.waitLine(t, "tools/call slow")
		cancel()
		if err := p.wait(t); !errors.Is(err, context.Canceled) {
			t.Errorf("Serve after cancel: %v", err)
		}
	})
	t.Run("exit hook", func(t *testing.T) {
		var mu sync.Mutex
		var status []int
		p := startInProcess(t, context.Background(), Config{Exit: func(s int) {
			mu.Lock()
			status = append(status, s)
			mu.Unlock()
		}})
		p.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"exit","arguments":{"status":9},`+modernMeta+`}}`)
		var exit *ExitError
		if err := p.wait(t); !errors.As(err, &exit) || exit.Status != 9 || err.Error() != "demo server exited with status 9" {
			t.Errorf("Serve after exit: %v", err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(status) != 1 || status[0] != 9 {
			t.Errorf("Exit called with %v", status)
		}
		for line := range p.lines {
			t.Errorf("written after exit: %s", line)
		}
	})
}
