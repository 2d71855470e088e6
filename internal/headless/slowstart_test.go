package headless

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// serveSlowProbe is a 2026-07-28 server that is slow to answer
// server/discover: it answers the probe only once the client has given up
// on it (its notifications/cancelled), so the answer comes late, to a
// process the client has abandoned; restarted, it takes the initialize it
// is sent.
func serveSlowProbe() int {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var probe json.RawMessage
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case "server/discover":
			probe = m.ID
		case "notifications/cancelled":
			if probe != nil {
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"slow","version":"1"}}}`+"\n", probe)
				probe = nil
			}
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"slow","version":"1"}}}`+"\n", m.ID, p.ProtocolVersion)
		case "tools/list":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`+"\n", m.ID)
		}
	}
	return 0
}

// A probe that runs out of patience restarts the server and pins an older
// version: stderr says so, why, and the flags that avoid it; the abandoned
// process's late answer is not called a call that will time out.
func TestSlowStartIsSaid(t *testing.T) {
	t.Parallel()
	r := run(t, args("tools", "--probe-timeout", "300ms", server("slowprobe"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"did not answer the server/discover probe within 300ms",
		"started again and initialized at 2025-11-25",
		"--probe-timeout 1m0s", "--protocol 2026-07-28",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "will time out") {
		t.Errorf("stderr says a call will time out, which none does:\n%s", r.stderr)
	}
	// Patient enough, it is spoken to at 2026-07-28, with nothing to say.
	r = run(t, args("tools", "--protocol", "2026-07-28", server("slowprobe"))...)
	if r.code != ExitOK || strings.Contains(r.stderr, "probe") {
		t.Errorf("pinned: exit %d\nstderr %s", r.code, r.stderr)
	}
}
