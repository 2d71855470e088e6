package mcp

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// stepKinds lists the kinds of a negotiation's steps.
func stepKinds(n Negotiation) []StepKind {
	var out []StepKind
	for _, s := range n.Steps {
		out = append(out, s.Kind)
	}
	return out
}

// checkNegotiation asserts the version, probes sent on the wire and
// processes started, as both the record and the outside world saw them.
func checkNegotiation(t *testing.T, s *fakeSetup, c *Client, version string, probes, spawns int, kinds ...StepKind) {
	t.Helper()
	n := c.Negotiation()
	if c.Version() != version || n.Version != version {
		t.Errorf("version %q (record %q), want %q", c.Version(), n.Version, version)
	}
	if got := len(s.wire.sent(MethodDiscover)); got != probes || n.Probes != probes {
		t.Errorf("probes on the wire %d, recorded %d, want %d", got, n.Probes, probes)
	}
	// An abandoned process may not have run at all yet; once its shutdown
	// is over it has (it logs its start before it reads stdin).
	c.bg.Wait()
	if got := s.spawns(); (got != spawns && spawns >= 0) || n.Spawns != max(spawns, 1) {
		t.Errorf("processes started %d, recorded %d, want %d", got, n.Spawns, spawns)
	}
	if kinds != nil && !slices.Equal(stepKinds(n), kinds) {
		t.Errorf("steps %v, want %v", stepKinds(n), kinds)
	}
	if n.Reason == "" || n.Duration <= 0 || n.Started.IsZero() {
		t.Errorf("record incomplete: %+v", n)
	}
	for _, st := range n.Steps {
		if st.Decision == "" {
			t.Errorf("step %v has no decision", st.Kind)
		}
	}
	if t.Failed() {
		for _, st := range n.Steps {
			t.Logf("step %v pid %d %s: sent %s got %s err %v: %s", st.Kind, st.PID, st.Method, st.Sent, st.Result, st.Err, st.Decision)
		}
	}
}

func TestNegotiateModernServer(t *testing.T) {
	s := newFake(t, "modern", "")
	c := s.mustConnect(testCtx(t))
	checkNegotiation(t, s, c, Version20260728, 1, 1, StepSpawn, StepProbe)
	if len(s.wire.sent(MethodInitialize)) != 0 || len(s.wire.sent(NotificationInitialized)) != 0 {
		t.Error("initialize sent to a 2026-07-28 server")
	}
	probe := s.wire.sent(MethodDiscover)[0]
	meta := probe.meta()
	if v, _ := stringMember(meta, MetaProtocolVersion); v != Version20260728 {
		t.Errorf("probe protocolVersion %q", v)
	}
	if string(meta.get(MetaClientCapabilities)) != `{}` {
		t.Errorf("probe capabilities %s, want {} (no answerers)", meta.get(MetaClientCapabilities))
	}
	var info Implementation
	if err := unmarshal(meta.get(MetaClientInfo), &info); err != nil || info.Name != "mcptui" || info.Version == "" {
		t.Errorf("probe clientInfo %s (%v)", meta.get(MetaClientInfo), err)
	}
	sess := c.Session()
	if sess.Server.Name != "fake-modern" || sess.Instructions != "modern fake" || sess.DiscoverResult == nil {
		t.Errorf("session %+v", sess)
	}
	if sess.Capabilities.Tools == nil || !sess.Capabilities.Tools.ListChanged || sess.Capabilities.Resources == nil || !sess.Capabilities.Resources.Subscribe {
		t.Errorf("capabilities %s decoded as %+v", sess.Capabilities.Raw, sess.Capabilities)
	}
}

func TestNegotiateLegacyMethodNotFound(t *testing.T) {
	s := newFake(t, "legacy-32601", "")
	c := s.mustConnect(testCtx(t))
	checkNegotiation(t, s, c, Version20251125, 1, 1, StepSpawn, StepProbe, StepInitialize, StepInitialized)
	n := c.Negotiation()
	if n.Steps[1].PID != n.Steps[2].PID {
		t.Error("initialize went to another process")
	}
	if e := errCode(t, n.Steps[1].Err); e.Code != CodeMethodNotFound {
		t.Errorf("probe error %v", e)
	}
	inits := s.wire.sent(MethodInitialize)
	if len(inits) != 1 || inits[0].str("protocolVersion") != Version20251125 || inits[0].param("_meta") != nil {
		t.Fatalf("initialize lines %v", inits)
	}
	if len(s.wire.sent(NotificationInitialized)) != 1 {
		t.Error("notifications/initialized not sent once")
	}
	sess := c.Session()
	if sess.Server.Name != "fake-legacy" || sess.Server.Title != "Legacy" || sess.Instructions != "legacy fake" || sess.InitializeResult == nil {
		t.Errorf("session %+v", sess)
	}
}

func TestNegotiateGarbageProbeAnswer(t *testing.T) {
	for _, arg := range []string{"string", "object"} {
		t.Run(arg, func(t *testing.T) {
			s := newFake(t, "legacy-garbage", arg)
			c := s.mustConnect(testCtx(t))
			checkNegotiation(t, s, c, Version20251125, 1, 1, StepSpawn, StepProbe, StepInitialize, StepInitialized)
		})
	}
}

func TestNegotiateJunkLineThenSilence(t *testing.T) {
	s := newFake(t, "legacy-junk", "")
	s.opts.ProbeTimeout = 300 * time.Millisecond
	c := s.mustConnect(testCtx(t))
	checkNegotiation(t, s, c, Version20251125, 1, 2,
		StepSpawn, StepProbe, StepAbandon, StepSpawn, StepInitialize, StepInitialized)
	discarded := 0
	s.wire.mu.Lock()
	for _, l := range s.wire.lines {
		if l.kind == conn.Discarded {
			discarded++
		}
	}
	s.wire.mu.Unlock()
	if discarded != 1 {
		t.Errorf("%d discarded lines, want the junk one", discarded)
	}
}

func TestNegotiateSilentServerRespawns(t *testing.T) {
	s := newFake(t, "legacy-silent", "")
	s.opts.ProbeTimeout = 300 * time.Millisecond
	c := s.mustConnect(testCtx(t))
	checkNegotiation(t, s, c, Version20251125, 1, 2,
		StepSpawn, StepProbe, StepAbandon, StepSpawn, StepInitialize, StepInitialized)
	n := c.Negotiation()
	if n.Steps[0].PID == n.Steps[3].PID || n.Steps[4].PID != c.PID() {
		t.Errorf("pids: first %d, second %d, client %d", n.Steps[0].PID, n.Steps[3].PID, c.PID())
	}
	if e := errCode(t, n.Steps[1].Err); e.Code != CodeTimeout {
		t.Errorf("probe error %v", e)
	}
	if n.Steps[1].Duration < 300*time.Millisecond || n.Duration < 300*time.Millisecond {
		t.Errorf("probe took %v, negotiation %v; want at least the probe timeout", n.Steps[1].Duration, n.Duration)
	}
	// The initialize went to the new process only.
	if got := len(s.wire.sent(MethodInitialize)); got != 1 {
		t.Errorf("%d initialize lines", got)
	}
	if err := c.Ping(testCtx(t)); err != nil {
		t.Errorf("ping after respawn: %v", err)
	}
}

func TestNegotiateServerExitsOnProbe(t *testing.T) {
	s := newFake(t, "legacy-exit", "")
	c := s.mustConnect(testCtx(t))
	checkNegotiation(t, s, c, Version20251125, 1, 2,
		StepSpawn, StepProbe, StepAbandon, StepSpawn, StepInitialize, StepInitialized)
	n := c.Negotiation()
	if n.Duration >= s.opts.ProbeTimeout {
		t.Errorf("negotiation took %v: an exit must not wait for the probe timeout", n.Duration)
	}
	if e := errCode(t, n.Steps[1].Err); e.Code != CodeConnection || e.Cause == nil {
		t.Errorf("probe error %v", e)
	}
}

func TestNegotiateProbeUnsupportedVersion(t *testing.T) {
	t.Run("legacy in common", func(t *testing.T) {
		s := newFake(t, "probe-32022", "2025-06-18,2024-11-05")
		c := s.mustConnect(testCtx(t))
		checkNegotiation(t, s, c, Version20250618, 1, 1, StepSpawn, StepProbe, StepInitialize, StepInitialized)
		if got := s.wire.sent(MethodInitialize)[0].str("protocolVersion"); got != Version20250618 {
			t.Errorf("initialize asked for %q", got)
		}
	})
	t.Run("none in common", func(t *testing.T) {
		s := newFake(t, "probe-32022", "2023-01-01")
		_, err := s.connect(testCtx(t))
		e := errCode(t, err)
		if e.Code != CodeInvalidParams || string(e.Data) != `{"requested":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"supported":["2023-01-01"]}` {
			t.Errorf("error %v", e)
		}
		if s.spawns() != 1 || len(s.wire.sent(MethodInitialize)) != 0 {
			t.Error("no fallback may follow a -32022")
		}
	})
}

func TestNegotiatePinned(t *testing.T) {
	t.Run("legacy", func(t *testing.T) {
		s := newFake(t, "legacy-32601", "")
		s.opts.Versions = []string{Version20250618}
		c := s.mustConnect(testCtx(t))
		checkNegotiation(t, s, c, Version20250618, 0, 1, StepSpawn, StepInitialize, StepInitialized)
	})
	t.Run("legacy only", func(t *testing.T) {
		s := newFake(t, "legacy-32601", "")
		s.opts.Versions = []string{Version20250618, Version20251125}
		c := s.mustConnect(testCtx(t))
		checkNegotiation(t, s, c, Version20250618, 0, 1, StepSpawn, StepInitialize, StepInitialized)
	})
	t.Run("2026-07-28", func(t *testing.T) {
		s := newFake(t, "modern", "")
		s.opts.Versions = []string{Version20260728}
		c := s.mustConnect(testCtx(t))
		// -1: the process may not have started running yet; checked below.
		checkNegotiation(t, s, c, Version20260728, 0, -1, StepSpawn, StepChoose)
		s.wire.mu.Lock()
		sent := 0
		for _, l := range s.wire.lines {
			if l.kind == conn.Sent {
				sent++
			}
		}
		s.wire.mu.Unlock()
		if sent != 0 {
			t.Errorf("%d lines sent at connect, want none", sent)
		}
		if c.Session().Server.Name != "" {
			t.Error("server identity known before anything was asked")
		}
		if _, err := c.CallTool(testCtx(t), "echo", map[string]string{"message": "hi"}); err != nil {
			t.Fatal(err)
		}
		if s.spawns() != 1 {
			t.Errorf("%d processes started", s.spawns())
		}
		if c.Session().Server.Name != "fake-modern" {
			t.Errorf("server identity not learned from a result's _meta: %+v", c.Session().Server)
		}
		if _, err := c.Discover(testCtx(t)); err != nil || c.Session().Instructions != "modern fake" {
			t.Errorf("discover: %v, session %+v", err, c.Session())
		}
	})
}

func TestNegotiateDisallowedInitializeAnswer(t *testing.T) {
	s := newFake(t, "legacy-32601", "answer-2023")
	_, err := s.connect(testCtx(t))
	e := errCode(t, err)
	if e.Code != CodeInvalidParams || !strings.Contains(e.Message, "2023-01-01, which mcptui does not speak") ||
		string(e.Data) != `{"allowed":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"negotiated":"2023-01-01","requested":"2025-11-25"}` {
		t.Errorf("error %v", e)
	}
}

// An initialize-era server that answers 2024-11-05 (TypeScript SDK before
// 1.13, mcp-go before v0.37) or the 2024-10-07 pre-release is spoken to in
// 2024-11-05; pinned to a version it does not speak, the error says which
// one it speaks and how to allow it.
func TestNegotiateOlderEras(t *testing.T) {
	for _, arg := range []string{"answer-2024", "answer-2024-10-07"} {
		t.Run(arg, func(t *testing.T) {
			s := newFake(t, "legacy-32601", arg)
			c := s.mustConnect(testCtx(t))
			if c.Version() != Version20241105 {
				t.Fatalf("version %q, want 2024-11-05", c.Version())
			}
		})
	}
	t.Run("pinned 2025-03-26", func(t *testing.T) {
		s := newFake(t, "legacy-32601", "")
		s.opts.Versions = []string{Version20250326}
		c := s.mustConnect(testCtx(t))
		if c.Version() != Version20250326 || s.wire.sent(MethodInitialize)[0].str("protocolVersion") != Version20250326 {
			t.Fatalf("version %q", c.Version())
		}
	})
	t.Run("pinned elsewhere", func(t *testing.T) {
		s := newFake(t, "legacy-32601", "answer-2024")
		s.opts.Versions = []string{Version20250618}
		_, err := s.connect(testCtx(t))
		e := errCode(t, err)
		if !strings.Contains(e.Message, "The server speaks protocol 2024-11-05, not the pinned 2025-06-18: pin 2024-11-05") {
			t.Errorf("error %v", e)
		}
	})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRenegotiateOnUnsupportedVersion(t *testing.T) {
	s := newFake(t, "modern", "first-32022")
	s.opts.Versions = []string{Version20260728}
	c := s.mustConnect(testCtx(t))
	tools, err := c.ListTools(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Items) != 2 {
		t.Errorf("tools %+v", tools.Items)
	}
	lists := s.wire.sent(MethodListTools)
	if len(lists) != 3 || string(lists[0].id) == string(lists[1].id) || lists[0].param("cursor") != nil || lists[1].param("cursor") != nil {
		s.wire.mu.Lock()
		for _, l := range s.wire.lines {
			t.Logf("%v %s", l.kind, l.line)
		}
		s.wire.mu.Unlock()
		t.Fatalf("tools/list lines: %d", len(lists))
	}
	n := c.Negotiation()
	last := n.Steps[len(n.Steps)-1]
	if last.Kind != StepRenegotiate || last.Method != MethodListTools || errorCode(last.Err) != CodeUnsupportedVersion {
		t.Errorf("last step %+v", last)
	}
}

func TestRenegotiateToInitializeEra(t *testing.T) {
	s := newFake(t, "changes-mind", "")
	c := s.mustConnect(testCtx(t))
	if c.Version() != Version20260728 {
		t.Fatalf("version %s", c.Version())
	}
	tools, err := c.ListTools(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Items) != 3 || c.Version() != Version20251125 {
		t.Errorf("%d tools, version %s", len(tools.Items), c.Version())
	}
	checkNegotiation(t, s, c, Version20251125, 1, 1,
		StepSpawn, StepProbe, StepRenegotiate, StepInitialize, StepInitialized)
	lists := s.wire.sent(MethodListTools)
	if len(lists) != 4 || lists[0].param("_meta") == nil || lists[1].param("_meta") != nil {
		t.Errorf("%d tools/list lines; the re-sent one must be initialize-era", len(lists))
	}
}

func TestConnectErrors(t *testing.T) {
	t.Run("not found", func(t *testing.T) {
		_, err := Connect(testCtx(t), "/nonexistent/mcp-server", nil, Options{})
		if e := errCode(t, err); e.Code != CodeConnection || !strings.Contains(e.Message, "Executable not found") {
			t.Errorf("error %v", e)
		}
	})
	t.Run("unknown version", func(t *testing.T) {
		_, err := Connect(testCtx(t), "/nonexistent/mcp-server", nil, Options{Versions: []string{"1999-01-01"}})
		if e := errCode(t, err); e.Code != CodeInvalidParams || !strings.Contains(e.Message, "1999-01-01") {
			t.Errorf("error %v", e)
		}
	})
	t.Run("bad capabilities", func(t *testing.T) {
		_, err := Connect(testCtx(t), "/nonexistent/mcp-server", nil, Options{Capabilities: json.RawMessage(`[]`)})
		if e := errCode(t, err); e.Code != CodeInvalidParams {
			t.Errorf("error %v", e)
		}
	})
}
