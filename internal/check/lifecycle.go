package check

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// quietWindow is how long a fresh server is watched between its initialize
// answer and notifications/initialized, for requests it must not send yet.
const quietWindow = 500 * time.Millisecond

// lifecycle checks the start of a session: initialize (and what comes
// before initialized) on the initialize era; server/discover, version
// errors, required _meta and statelessness on 2026-07-28.
func (r *run) lifecycle() {
	if mcp.Stateless(r.era) {
		r.discover()
		return
	}
	r.initializeResult(r.cur().Session().InitializeResult)
	if r.wants("lifecycle.ping", "lifecycle.no-requests-before-initialized", "lifecycle.version-echo") {
		r.probeBeforeInitialized()
	}
	if r.wants("lifecycle.unsupported-version", "lifecycle.latest-version") {
		r.unsupportedVersion()
	}
}

// lifecycleFailedConnect judges what a failed connection says.
func (r *run) lifecycleFailedConnect(err error) {
	if mcp.Stateless(r.era) {
		r.fail("lifecycle.discover", "the connection failed: %v", err)
		return
	}
	var e *mcp.Error
	var data struct{ Negotiated, Requested string }
	if errors.As(err, &e) && e.Code == mcp.CodeInvalidParams && json.Unmarshal(e.Data, &data) == nil && data.Negotiated != "" {
		r.fail("lifecycle.version-echo", "asked for %s, the server answered protocolVersion %s", data.Requested, data.Negotiated)
		return
	}
	r.fail("lifecycle.initialize-result", "the connection failed: %v", err)
}

func (r *run) initializeResult(res json.RawMessage) {
	m := object(res)
	info := object(m["serverInfo"])
	switch {
	case m == nil:
		r.fail("lifecycle.initialize-result", "the initialize result is not an object: %s", clip(string(res), 200))
	case !isString(m["protocolVersion"]):
		r.fail("lifecycle.initialize-result", "protocolVersion is %s", orAbsent(m["protocolVersion"]))
	case !isObject(m["capabilities"]):
		r.fail("lifecycle.initialize-result", "capabilities is %s", orAbsent(m["capabilities"]))
	case info == nil || !isString(info["name"]) || !isString(info["version"]):
		r.fail("lifecycle.initialize-result", "serverInfo is %s (want name and version strings)", orAbsent(m["serverInfo"]))
	case m["instructions"] != nil && !isString(m["instructions"]):
		r.fail("lifecycle.initialize-result", "instructions is %s, not a string", clip(string(m["instructions"]), 80))
	default:
		r.pass("lifecycle.initialize-result")
	}
	// The main session asked for r.era and got it (a pinned Connect fails
	// otherwise); ask a fresh process for the version it chose itself.
	r.pass("lifecycle.version-echo")
}

// dial starts a separate process for a probe that needs a fresh server.
func (r *run) dial(onRequest conn.Handler) (*conn.Conn, error) {
	if mcp.IsURL(r.o.Command) {
		return nil, errors.New("the probe starts a second stdio process; an HTTP endpoint has none")
	}
	if why := r.silence(); why != "" {
		return nil, errors.New("not started: " + why)
	}
	co := r.o.Conn
	co.Observer = r.o.chain(r.observer())
	co.Stderr = r.o.Stderr
	if co.Stderr == nil {
		co.Stderr = io.Discard
	}
	co.Observer, co.Stderr = r.o.traced(co.Observer, co.Stderr)
	co.OnServerRequest = onRequest
	return conn.Dial(r.ctx, r.o.Command, r.o.Args, co)
}

func (r *run) initParams(version string) map[string]any {
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{"roots": map[string]any{"listChanged": true}, "sampling": map[string]any{}, "elicitation": map[string]any{}},
		"clientInfo":      map[string]any{"name": mcp.ClientName, "version": "check"},
	}
}

// probeBeforeInitialized initializes a fresh server, watches it before
// sending notifications/initialized (the linter judges any request it
// sends), pings it there, and asks again with the version it chose.
func (r *run) probeBeforeInitialized() {
	c, err := r.dial(func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
		if req.Method == mcp.MethodListRoots {
			return json.RawMessage(`{"roots":[]}`), nil
		}
		return nil, &mcp.Error{Code: mcp.CodeMethodNotFound, Message: "mcptui check declines " + req.Method}
	})
	if err != nil {
		r.skip("lifecycle.ping", "a second process did not start: "+err.Error())
		return
	}
	defer c.Shutdown(time.Second)
	res, e := rawCall(r.ctx, c, mcp.MethodInitialize, r.initParams(r.era), r.o)
	if e != nil {
		r.skip("lifecycle.ping", "initialize failed on a second process: "+describe(e))
		return
	}
	select {
	case <-time.After(quietWindow):
	case <-r.ctx.Done():
		return
	}
	pong, e := rawCall(r.ctx, c, mcp.MethodPing, map[string]any{}, r.o)
	r.judge("lifecycle.ping", e == nil && isObject(pong), "ping before initialized got %s %s", describe(e), clip(string(pong), 80))
	_ = c.Notify(r.ctx, mcp.NotificationInitialized, map[string]any{})
	pong, e = rawCall(r.ctx, c, mcp.MethodPing, nil, r.o)
	r.judge("lifecycle.ping", e == nil && isObject(pong), "ping got %s %s", describe(e), clip(string(pong), 80))
	r.pass("lifecycle.no-requests-before-initialized")

	// The version the server chose for r.era must come back when asked for.
	chosen := str(object(res)["protocolVersion"])
	if chosen == "" || chosen == r.era {
		return
	}
	c2, err := r.dial(nil)
	if err != nil {
		return
	}
	defer c2.Shutdown(time.Second)
	res2, e := rawCall(r.ctx, c2, mcp.MethodInitialize, r.initParams(chosen), r.o)
	got := str(object(res2)["protocolVersion"])
	r.judge("lifecycle.version-echo", e == nil && got == chosen,
		"asked for %s (the version it answered before), the server answered %s", chosen, orAbsent(object(res2)["protocolVersion"]))
}

// unsupportedVersion asks a fresh server for a version no one speaks.
func (r *run) unsupportedVersion() {
	const bogus = "1999-01-01"
	c, err := r.dial(nil)
	if err != nil {
		r.skip("lifecycle.unsupported-version", "a second process did not start: "+err.Error())
		return
	}
	defer c.Shutdown(time.Second)
	res, e := rawCall(r.ctx, c, mcp.MethodInitialize, r.initParams(bogus), r.o)
	switch {
	case transportGone(e):
		r.fail("lifecycle.unsupported-version", "initialize with protocolVersion %s got no answer: %s", bogus, describe(e))
	case e != nil:
		r.pass("lifecycle.unsupported-version") // an error naming the versions is allowed
	default:
		got := str(object(res)["protocolVersion"])
		// The main session speaks r.era: an answer older than that is not
		// the server's latest.
		r.judge("lifecycle.latest-version", got >= r.era,
			"asked for %s, the server answered %s, older than %s which it speaks too", bogus, clip(got, 40), r.era)
		r.judge("lifecycle.unsupported-version", got != bogus && slices.Contains(rules.Eras, got) || got > "2024-10-00" && got != bogus && len(got) == 10,
			"asked for %s, the server answered protocolVersion %s", bogus, orAbsent(object(res)["protocolVersion"]))
	}
}

// discover checks server/discover and the 2026-07-28 request rules.
func (r *run) discover() {
	res, e := r.raw(mcp.MethodDiscover, r.params(nil))
	if e != nil {
		r.fail("lifecycle.discover", "server/discover got %s", describe(e))
	} else {
		m := object(res)
		var versions []string
		_ = json.Unmarshal(m["supportedVersions"], &versions)
		ttl, scope := m["ttlMs"], str(m["cacheScope"])
		var ttlN float64
		_ = json.Unmarshal(ttl, &ttlN)
		switch {
		case str(m["resultType"]) != "complete":
			r.fail("lifecycle.discover", "resultType is %s", orAbsent(m["resultType"]))
		case len(versions) == 0 || !slices.Contains(versions, r.era):
			r.fail("lifecycle.discover", "supportedVersions is %s (want a list naming %s)", orAbsent(m["supportedVersions"]), r.era)
		case !isObject(m["capabilities"]):
			r.fail("lifecycle.discover", "capabilities is %s", orAbsent(m["capabilities"]))
		case !isNumber(ttl) || ttlN < 0 || (scope != "public" && scope != "private"):
			r.fail("lifecycle.discover", "ttlMs %s, cacheScope %s", orAbsent(ttl), orAbsent(m["cacheScope"]))
		default:
			r.pass("lifecycle.discover")
		}
		info := object(object(m["_meta"])[mcp.MetaServerInfo])
		r.judge("lifecycle.server-info", info != nil && isString(info["name"]) && isString(info["version"]),
			"server/discover's _meta has no serverInfo {name, version}")
	}

	// An unknown version (a newer client's): -32022 naming the supported ones.
	const future = "2099-01-01"
	p := map[string]any{"_meta": map[string]any{mcp.MetaProtocolVersion: future, mcp.MetaClientCapabilities: map[string]any{}}}
	_, e = r.raw(mcp.MethodDiscover, p)
	var data struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	if e != nil {
		_ = json.Unmarshal(e.Data, &data)
	}
	r.judgeAnswer("lifecycle.unsupported-version-32022", e, e != nil && e.Code == -32022 && len(data.Supported) > 0 && data.Requested == future,
		"server/discover with protocolVersion %s got %s data %s", future, describe(e), dataOf(e))

	// A 2026-07-28 request without the required clientCapabilities.
	_, e = r.raw(mcp.MethodListTools, map[string]any{"_meta": map[string]any{mcp.MetaProtocolVersion: r.era}})
	r.judgeAnswer("lifecycle.meta-required", e, e != nil && e.Code == mcp.CodeInvalidParams,
		"tools/list whose _meta has no clientCapabilities got %s (want -32602)", describe(e))

	if r.wants("lifecycle.stateless") {
		r.stateless()
	}
	if r.wants("lifecycle.initialize-names-versions") {
		r.initializeOnModern()
	}
}

// initializeOnModern sends a legacy initialize to a fresh process: a
// server that refuses it must say which versions it speaks.
func (r *run) initializeOnModern() {
	c, err := r.dial(nil)
	if err != nil {
		r.skip("lifecycle.initialize-names-versions", "a second process did not start: "+err.Error())
		return
	}
	defer c.Shutdown(time.Second)
	_, e := rawCall(r.ctx, c, mcp.MethodInitialize, r.initParams(protocol.LastInitializeEra), r.o)
	switch {
	case transportGone(e):
		r.skip("lifecycle.initialize-names-versions", "initialize got no answer: "+describe(e))
	case e == nil:
		r.pass("lifecycle.initialize-names-versions") // it speaks initialize too
	default:
		text := e.Message + " " + string(e.Data)
		r.judge("lifecycle.initialize-names-versions", strings.Contains(text, r.era),
			"initialize (2025-11-25) got %s data %s, naming no version the server speaks", describe(e), dataOf(e))
	}
}

// stateless compares the lists of two separate connections.
func (r *run) stateless() {
	caps := r.cur().Session().Capabilities
	if caps.Tools == nil {
		r.skip("lifecycle.stateless", "the server declares no tools to compare")
		return
	}
	first, e := r.raw(mcp.MethodListTools, r.params(nil))
	if e != nil {
		r.skip("lifecycle.stateless", "tools/list failed: "+describe(e))
		return
	}
	c, err := r.dial(nil)
	if err != nil {
		r.skip("lifecycle.stateless", "a second process did not start: "+err.Error())
		return
	}
	defer c.Shutdown(time.Second)
	second, e := rawCall(r.ctx, c, mcp.MethodListTools, r.params(nil), r.o)
	if e != nil {
		r.fail("lifecycle.stateless", "tools/list on a fresh connection got %s", describe(e))
		return
	}
	a, b := object(first)["tools"], object(second)["tools"]
	var va, vb any
	_ = json.Unmarshal(a, &va)
	_ = json.Unmarshal(b, &vb)
	r.judge("lifecycle.stateless", reflect.DeepEqual(va, vb), "tools/list differs between two connections: %s vs %s", clip(string(a), 100), clip(string(b), 100))
}

// exitOnEOF shuts the main session down (stdin EOF first) and judges
// whether the server left at EOF, before the SIGTERM that follows the bound.
func (r *run) exitOnEOF() {
	bound := r.o.ExitBound
	if bound <= 0 {
		bound = 3 * time.Second
	}
	start := time.Now()
	r.cur().Shutdown(bound)
	if took := time.Since(start); took >= bound {
		r.fail("transport.exit-on-eof", "the server was still running %s after its stdin closed (stopped by SIGTERM)", bound)
		return
	}
	r.pass("transport.exit-on-eof")
}

func orAbsent(raw json.RawMessage) string {
	if raw == nil {
		return "absent"
	}
	return clip(string(raw), 120)
}

func dataOf(e *mcp.Error) string {
	if e == nil || e.Data == nil {
		return "none"
	}
	return clip(string(e.Data), 120)
}
