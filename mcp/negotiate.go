package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// Negotiation records how the protocol version was chosen, for the UI to
// show: every process started, every message sent during the negotiation,
// what came back, and the decision taken.
type Negotiation struct {
	// Allowed are the versions the client allowed, most preferred first.
	Allowed []string
	// Version is the version in use.
	Version string
	// Reason says in one sentence why Version was chosen.
	Reason string
	// Spawns counts the processes started (2 after a respawn).
	Spawns int
	// Probes counts the server/discover probes sent.
	Probes int
	// Started is when Connect began; Duration how long it took.
	Started  time.Time
	Duration time.Duration
	// Steps are the individual steps, in order.
	Steps []Step
}

// StepKind says what a negotiation step did.
type StepKind int

// The kinds of Step.
const (
	// StepSpawn started the server process.
	StepSpawn StepKind = iota + 1
	// StepProbe sent server/discover.
	StepProbe
	// StepInitialize sent initialize.
	StepInitialize
	// StepInitialized sent notifications/initialized.
	StepInitialized
	// StepAbandon gave up on a process (silent or exited) before a respawn.
	StepAbandon
	// StepChoose chose a version without sending anything (pinned).
	StepChoose
	// StepRenegotiate handled a -32022 answer to a later request.
	StepRenegotiate
	// StepSessionExpired handled an HTTP server's 404 for the session id:
	// a new session was initialized.
	StepSessionExpired
)

// String names the kind.
func (k StepKind) String() string {
	switch k {
	case StepSpawn:
		return "spawn"
	case StepProbe:
		return "probe"
	case StepInitialize:
		return "initialize"
	case StepInitialized:
		return "initialized"
	case StepAbandon:
		return "abandon"
	case StepChoose:
		return "choose"
	case StepRenegotiate:
		return "renegotiate"
	case StepSessionExpired:
		return "session-expired"
	}
	return fmt.Sprintf("StepKind(%d)", int(k))
}

// Step is one step of the negotiation.
type Step struct {
	Kind StepKind
	// Method is the method sent, if any.
	Method string
	// PID is the process the step concerned.
	PID int
	// Sent is the params sent; Result the result that came back; Err the
	// error (from the server, or the transport's timeout or exit).
	Sent   json.RawMessage
	Result json.RawMessage
	Err    error
	// Decision is what the step concluded, in words.
	Decision string
	// Start is when the step began; Duration how long it took.
	Start    time.Time
	Duration time.Duration
}

// Connect starts command with args, negotiates the protocol version and
// returns a client ready for requests. ctx owns the client: when it is done
// the connection closes. Negotiation on stdio:
//
//   - Versions pinned to one: nothing is probed; an initialize-era version is
//     initialized at once, 2026-07-28 sends nothing.
//   - Otherwise server/discover is sent with the 2026-07-28 _meta. A
//     DiscoverResult, or a -32022 error, names the server's versions: the
//     most preferred allowed one is used (an initialize-era one initialized
//     on the same process); none in common closes and fails with -32602,
//     data {"requested": [...], "supported": [...]}.
//   - Any other answer (an error, or a result that is not a DiscoverResult)
//     means an initialize-era server: initialize on the same process.
//   - No answer within ProbeTimeout, or the process exited: the server is
//     started again and initialized.
//
// Connect's errors wrap an *Error.
//
// A command that is an http:// or https:// URL (see IsURL) connects to a
// Streamable HTTP endpoint instead, with args empty: there is no process to
// respawn, so any probe answer other than a DiscoverResult or a -32022
// (an HTTP error, a JSON-RPC error, silence) means initialize on the same
// endpoint.
func Connect(ctx context.Context, command string, args []string, opts Options) (*Client, error) {
	if IsURL(command) {
		if len(args) > 0 {
			return nil, fmt.Errorf("mcp: connecting to %s: %w", command, errorf(CodeInvalidParams, "a URL takes no arguments"))
		}
		return connect(ctx, command, nil, opts, dialHTTP(opts.HTTP))
	}
	return connect(ctx, command, args, opts, dialConn)
}

func connect(ctx context.Context, command string, args []string, opts Options, dial dialer) (*Client, error) {
	if opts.ProbeTimeout == 0 {
		opts.ProbeTimeout = ProbeTimeoutFor(command)
	}
	o, err := opts.normalized()
	if err != nil {
		return nil, fmt.Errorf("mcp: connecting to %s: %w", command, err)
	}
	c := &Client{
		command:    command,
		args:       slices.Clone(args),
		opts:       o,
		dial:       dial,
		remote:     IsURL(command),
		legacySubs: map[*legacyStream]struct{}{},
		uriRefs:    map[string]int{},
	}
	c.neg = Negotiation{Allowed: slices.Clone(o.Versions), Started: time.Now()}
	err = c.negotiate(ctx)
	c.mu.Lock()
	c.neg.Duration = time.Since(c.neg.Started)
	c.mu.Unlock()
	if err != nil {
		// Nobody else can stop this process: shut it down (EOF, SIGTERM,
		// SIGKILL) rather than only closing its stdin, and wait for the
		// ones abandoned before it.
		if c.w != nil {
			_ = c.w.Shutdown(o.ShutdownGrace)
		}
		c.bg.Wait()
		return nil, fmt.Errorf("mcp: connecting to %s: %w", command, err)
	}
	return c, nil
}

// spawn starts (another) server process.
func (c *Client) spawn(ctx context.Context) error {
	start := time.Now()
	w, err := c.dial(ctx, c.command, c.args, c.connOptions())
	step := Step{Kind: StepSpawn, Start: start, Duration: time.Since(start), Err: err}
	if err != nil {
		step.Decision = "could not start the server"
		c.record(step)
		return err
	}
	c.w = w
	step.PID = w.PID()
	step.Decision = "started " + c.command
	if c.remote {
		step.Decision = "opened " + c.command
	}
	c.record(step)
	return nil
}

// abandon gives up on the current process: stdin is closed and, in the
// background, the process is shut down (Shutdown waits for that).
func (c *Client) abandon(why string) {
	old := c.w
	c.record(Step{Kind: StepAbandon, PID: old.PID(), Start: time.Now(), Decision: why})
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		_ = old.Shutdown(c.opts.ShutdownGrace)
	}()
}

// decide records the chosen version and why.
func (c *Client) decide(version, reason string) {
	c.setSession(func(s *Session) { s.Version = version })
	c.mu.Lock()
	c.neg.Reason = reason
	c.mu.Unlock()
}

func (c *Client) negotiate(ctx context.Context) error {
	allowed := c.opts.Versions
	if err := c.spawn(ctx); err != nil {
		return err
	}
	if len(allowed) == 1 {
		v := allowed[0]
		if Stateless(v) {
			c.record(Step{Kind: StepChoose, PID: c.w.PID(), Start: time.Now(),
				Decision: "pinned to " + v + ": nothing sent at connect"})
			c.decide(v, "pinned to "+v)
			return nil
		}
		return c.initialize(ctx, v, "pinned to "+v)
	}
	if !slices.ContainsFunc(allowed, Stateless) {
		return c.initialize(ctx, allowed[0], "only initialize-era versions allowed: no probe")
	}
	return c.probe(ctx)
}

// probe sends server/discover and acts on what comes back.
func (c *Client) probe(ctx context.Context) error {
	params := object{}.set("_meta", c.dialectMeta(Version20260728, "").encode()).encode()
	start := time.Now()
	res, err := c.w.Call(ctx, MethodDiscover, params, conn.WithTimeout(c.opts.ProbeTimeout))
	step := Step{Kind: StepProbe, Method: MethodDiscover, PID: c.w.PID(), Sent: params,
		Result: res, Err: err, Start: start, Duration: time.Since(start)}
	if err == nil {
		return c.probeAnswered(ctx, step, res)
	}
	return c.probeFailed(ctx, step, err)
}

// probeAnswered goes on from a result of the server/discover probe: a
// DiscoverResult names the versions to choose from; anything else is an
// initialize-era server.
func (c *Client) probeAnswered(ctx context.Context, step Step, res json.RawMessage) error {
	allowed := c.opts.Versions
	dr, derr := decodeDiscover(res)
	if derr != nil {
		step.Decision = fmt.Sprintf("the answer is not a DiscoverResult (%v): an initialize-era server; initialize on the same process", derr)
		c.record(step)
		return c.initialize(ctx, firstLegacy(allowed), "the probe's answer was not a DiscoverResult")
	}
	v := choose(allowed, dr.SupportedVersions)
	if v == "" {
		return c.closeNoCommon(step, "", allowed, dr.SupportedVersions)
	}
	c.setSession(func(s *Session) {
		s.DiscoverResult = dr.Raw
		s.Offered = slices.Clone(dr.SupportedVersions)
		applyDiscover(s, dr)
	})
	return c.useListed(ctx, step, v, fmt.Sprintf("discover lists %v", dr.SupportedVersions), "server/discover listed it")
}

// probeFailed goes on from an error of the server/discover probe: an exit
// or silence means starting again for initialize, -32022 names the
// versions to choose from, any other error is an initialize-era server.
func (c *Client) probeFailed(ctx context.Context, step Step, err error) error {
	allowed := c.opts.Versions
	legacy := firstLegacy(allowed)
	if ctx.Err() != nil {
		step.Decision = "cancelled"
		c.record(step)
		return err
	}
	e := asError(err)
	switch {
	case c.remote && (e == nil || e.Code != CodeUnsupportedVersion):
		step.Decision = fmt.Sprintf("error %s: over HTTP an initialize-era server; initialize on the same endpoint", errorSummary(err))
		c.record(step)
		return c.initialize(ctx, legacy, "server/discover failed over HTTP")
	case c.connStopped(err):
		step.Decision = "the server exited: start it again and initialize"
		c.record(step)
		c.abandon("exited during the probe")
		return c.respawn(ctx, legacy, "the server exited on the probe")
	case e != nil && e.Code == CodeTimeout && time.Since(step.Start) >= c.opts.ProbeTimeout:
		step.Decision = fmt.Sprintf("no answer within %v: start the server again and initialize", c.opts.ProbeTimeout)
		c.record(step)
		c.abandon("silent on the probe")
		return c.respawn(ctx, legacy, "the server was silent on the probe")
	case e != nil && e.Code == CodeUnsupportedVersion:
		supported := supportedFromData(e.Data)
		c.setSession(func(s *Session) { s.Offered = slices.Clone(supported) })
		v := choose(allowed, supported)
		if v == "" {
			return c.closeNoCommon(step, "-32022: ", allowed, supported)
		}
		return c.useListed(ctx, step, v, fmt.Sprintf("-32022 lists %v", supported), "the probe's -32022 listed it")
	default:
		step.Decision = fmt.Sprintf("error %s: an initialize-era server; initialize on the same process", errorSummary(err))
		c.record(step)
		return c.initialize(ctx, legacy, "server/discover failed with an error")
	}
}

// useListed goes on with v, chosen from the versions the probe's answer
// listed (listed says where): a stateless version is used at once, an
// older one is initialized on the same process.
func (c *Client) useListed(ctx context.Context, step Step, v, listed, why string) error {
	if Stateless(v) {
		step.Decision = fmt.Sprintf("%s: use %s", listed, v)
		c.record(step)
		c.decide(v, why)
		return nil
	}
	step.Decision = fmt.Sprintf("%s: use %s, initialize on the same process", listed, v)
	c.record(step)
	return c.initialize(ctx, v, why)
}

// closeNoCommon records the end of a probe whose answer listed no
// allowed version (said prefixes the decision) and returns the error.
func (c *Client) closeNoCommon(step Step, said string, allowed, supported []string) error {
	step.Decision = fmt.Sprintf("%sthe server supports %v, none allowed: close", said, supported)
	c.record(step)
	return noCommonVersion(allowed, supported)
}

// respawn starts the server again and initializes it.
func (c *Client) respawn(ctx context.Context, version, reason string) error {
	if err := c.spawn(ctx); err != nil {
		return err
	}
	return c.initialize(ctx, version, reason)
}

// initialize performs the initialize handshake on the current process.
func (c *Client) initialize(ctx context.Context, version, reason string) error {
	params := object{}.
		set("protocolVersion", quote(version)).
		set("capabilities", c.opts.clientCapabilities(version)).
		set("clientInfo", c.opts.clientInfo()).encode()
	start := time.Now()
	// initialize is never cancelled (every revision says so): on a timeout
	// the client gives up without notifications/cancelled.
	res, err := c.w.Call(ctx, MethodInitialize, params, append(c.timeoutOptions(), conn.WithoutCancellation())...)
	step := Step{Kind: StepInitialize, Method: MethodInitialize, PID: c.w.PID(), Sent: params,
		Result: res, Err: err, Start: start, Duration: time.Since(start)}
	if err != nil {
		step.Decision = "initialize failed"
		c.record(step)
		return fmt.Errorf("initialize: %w", err)
	}
	var ir struct {
		ProtocolVersion *string            `json:"protocolVersion"`
		Capabilities    ServerCapabilities `json:"capabilities"`
		ServerInfo      Implementation     `json:"serverInfo"`
		Instructions    string             `json:"instructions"`
	}
	if derr := unmarshal(res, &ir); derr != nil || ir.ProtocolVersion == nil {
		step.Decision = "the result has no protocolVersion: close"
		c.record(step)
		return newError(CodeConnection, "The server's initialize result has no protocolVersion", res)
	}
	answered := *ir.ProtocolVersion
	got := CanonicalVersion(answered)
	if Stateless(got) || !slices.Contains(c.opts.Versions, got) {
		step.Decision = fmt.Sprintf("the server answered %q, which is not allowed: close", answered)
		c.record(step)
		return notAllowed(answered, version, c.opts.Versions)
	}
	step.Decision = "the server answered " + answered
	if answered != got {
		step.Decision += " (spoken as " + got + ", the same messages)"
	}
	step.Decision += c.transportNote()
	c.record(step)
	if bw, ok := c.w.(interface{ SetAcceptBatches(bool) }); ok {
		// 2025-03-26 is the one revision whose clients MUST accept a
		// JSON-RPC batch; on every other the seed's rule stays.
		bw.SetAcceptBatches(Batches(got))
	}
	c.setSession(func(s *Session) {
		if len(s.Offered) == 0 {
			s.Offered = []string{answered}
		}
		s.InitializeResult = res
		s.Server = ir.ServerInfo
		s.Capabilities = ir.Capabilities
		s.Instructions = ir.Instructions
	})
	c.decide(got, reason)

	start = time.Now()
	nerr := c.w.Notify(ctx, NotificationInitialized, json.RawMessage(`{}`))
	step = Step{Kind: StepInitialized, Method: NotificationInitialized, PID: c.w.PID(),
		Sent: json.RawMessage(`{}`), Err: nerr, Start: start, Duration: time.Since(start),
		Decision: "ready on " + got}
	if nerr != nil {
		step.Decision = "could not send notifications/initialized"
	}
	c.record(step)
	if nerr != nil {
		return fmt.Errorf("notifications/initialized: %w", nerr)
	}
	return nil
}

// notAllowed is the -32602 error for an initialize answer outside the
// allowed versions: it says what the server speaks and how to allow it.
func notAllowed(answered, requested string, allowed []string) *Error {
	msg := fmt.Sprintf("The server negotiated protocol %s, which the client does not allow", answered)
	switch {
	case KnownVersion(answered) && len(allowed) == 1:
		msg = fmt.Sprintf("The server speaks protocol %s, not the pinned %s: pin %s, or drop --protocol to negotiate",
			answered, allowed[0], CanonicalVersion(answered))
	case KnownVersion(answered):
		msg = fmt.Sprintf("The server speaks protocol %s, which --protocol does not allow (%s): add --protocol %s",
			answered, strings.Join(allowed, ", "), CanonicalVersion(answered))
	case !Stateless(answered):
		msg = fmt.Sprintf("The server negotiated protocol %s, which mcptui does not speak (it speaks %s)",
			answered, strings.Join(DefaultVersions, ", "))
	}
	return newError(CodeInvalidParams, msg,
		map[string]any{"negotiated": answered, "requested": requested, "allowed": allowed})
}

// decodeDiscover decodes a DiscoverResult; an answer without a
// supportedVersions list of strings is not one.
func decodeDiscover(res json.RawMessage) (*DiscoverResult, error) {
	if !isObject(res) {
		return nil, fmt.Errorf("the result is a JSON %s", jsonKind(res))
	}
	obj, err := parseObject(res)
	if err != nil {
		return nil, err
	}
	if jsonKind(obj.get("supportedVersions")) != "array" {
		return nil, errors.New("no supportedVersions list")
	}
	var dr DiscoverResult
	if err := unmarshal(res, &dr); err != nil {
		return nil, err
	}
	dr.Raw = slices.Clone(res)
	if meta, err := parseObject(dr.Meta); err == nil {
		if raw := meta.get(MetaServerInfo); raw != nil {
			var info Implementation
			if unmarshal(raw, &info) == nil {
				dr.ServerInfo = &info
			}
		}
	}
	return &dr, nil
}

// applyDiscover copies what a DiscoverResult says into the session.
func applyDiscover(s *Session, dr *DiscoverResult) {
	s.Capabilities = dr.Capabilities
	s.Instructions = dr.Instructions
	if dr.ServerInfo != nil {
		s.Server = *dr.ServerInfo
	}
}

// supportedFromData reads data.supported of a -32022 error.
func supportedFromData(data json.RawMessage) []string {
	var d struct {
		Supported []string `json:"supported"`
	}
	if unmarshal(data, &d) != nil {
		return nil
	}
	return d.Supported
}

// errorSummary is "code message" of an error, for decisions.
func errorSummary(err error) string {
	if e := asError(err); e != nil {
		return fmt.Sprintf("%d %q", e.Code, e.Message)
	}
	return strings.TrimSpace(err.Error())
}
