package replay

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// endless is an io.Reader of n filler bytes and then rest.
type endless struct {
	n     int64
	rest  string
	block []byte // filler, copied out a block at a time
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n > 0 {
		// Filled by copy, not byte by byte: under -race every single
		// store is checked.
		k := int(min(int64(len(p)), e.n))
		if len(e.block) == 0 {
			e.block = bytes.Repeat([]byte{'7'}, 64<<10)
		}
		for done := 0; done < k; {
			done += copy(p[done:k], e.block)
		}
		e.n -= int64(k)
		return k, nil
	}
	if e.rest == "" {
		return 0, io.EOF
	}
	k := copy(p, e.rest)
	e.rest = e.rest[k:]
	return k, nil
}

// replay --serve, as a real process, reads a client's stdin in bounded
// memory: a 1 GiB line is discarded as it streams by (and said on stderr),
// and the request after it is answered.
func TestServeDiscardsA1GiBClientLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rec.jsonl")
	rec := `{"type":"header","format":"mcptui-recording","version":1,"t":"2026-01-01T00:00:00Z","ms":0,"command":"srv","args":[],"secrets":false,"settings":{}}
{"type":"sent","t":"2026-01-01T00:00:00Z","ms":1,"size":60,"msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"type":"received","t":"2026-01-01T00:00:00Z","ms":2,"size":40,"msg":{"jsonrpc":"2.0","id":1,"result":{"pong":true}}}
{"type":"end","t":"2026-01-01T00:00:00Z","ms":3}
`
	if err := os.WriteFile(file, []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serverEnv+"=serve:"+file)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = io.Copy(stdin, &endless{n: 1 << 30, rest: "\n" + `{"jsonrpc":"2.0","id":"after","method":"ping"}` + "\n"})
		stdin.Close()
	}()
	answer, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.Contains(answer, `"id":"after"`) || !strings.Contains(answer, "pong") {
		t.Fatalf("answer %q, %v; stderr %s", answer, err, stderr.String())
	}
	_, _ = io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("replay --serve: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "a line of 1.0 GiB from the client is over the 16.0 MiB limit: discarded") {
		t.Errorf("stderr %q", stderr.String())
	}
	if maxrss, ok := peakRSS(cmd.ProcessState); ok {
		t.Logf("replay --serve peak RSS reading a 1 GiB line: %.1f MiB", float64(maxrss)/1024)
		if maxrss > 256<<10 { // KiB
			t.Errorf("peak RSS %d MiB: the line was held", maxrss>>10)
		}
	}
}
