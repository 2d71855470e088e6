package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// Transport is an http.RoundTripper that authorizes requests to one MCP
// server: see the package comment.
type Transport struct {
	base      http.RoundTripper
	serverURL string
	origin    string
	cfg       Config
	hc        *http.Client

	flow chan struct{} // holds one token while an authorization runs

	mu      sync.Mutex
	token   *Token
	clients map[string]*registration // issuer → registered client
	tried   [][]string               // scope sets asked for after 403s
	steps   int                      // authorizations after the first
	log     func(string)             // where steps go without OnStep
	history []string                 // the last steps, for LogSteps

	onActivity func(Activity) // see SetOnActivity
	inFlow     bool           // the flow token is held
	reported   bool           // a Running activity was reported for it
}

// Activity is an authorization in progress, for a status line: Running
// while a flow (discovery, registration, the browser, a token request, a
// refresh) holds the transport, with the step it is at; then once not
// Running when it ends.
type Activity struct {
	Running bool
	Step    Step
}

// SetOnActivity makes f hear of every authorization that runs from now on
// (nil: none). f is called from the goroutine running the flow and must
// not block.
func (t *Transport) SetOnActivity(f func(Activity)) {
	t.mu.Lock()
	t.onActivity = f
	t.mu.Unlock()
}

// registration is a dynamically registered client and the redirect port
// it registered.
type registration struct {
	client Client
	port   int
}

// New is a Transport for the MCP server at serverURL, sending through base
// (nil: http.DefaultTransport).
func New(base http.RoundTripper, serverURL string, cfg Config) (*Transport, error) {
	u, err := url.Parse(serverURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("oauth: not an http(s) URL: %q", serverURL)
	}
	if cfg.ClientMetadataURL != "" {
		m, err := url.Parse(cfg.ClientMetadataURL)
		if err != nil || m.Scheme != "https" || m.Path == "" || m.Path == "/" {
			return nil, fmt.Errorf("oauth: a client metadata document URL must be https with a path, got %q", cfg.ClientMetadataURL)
		}
	}
	if base == nil {
		base = http.DefaultTransport
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "mcptui"
	}
	if cfg.LoginTimeout <= 0 {
		cfg.LoginTimeout = 5 * time.Minute
	}
	if cfg.MaxAuthorizations <= 0 {
		cfg.MaxAuthorizations = 2
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore()
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: base}
	}
	// The one outbound policy: a code, a verifier or a client secret
	// posted to an endpoint never follows a redirect to another origin.
	hc = urlpolicy.Client(hc)
	if hc.Timeout <= 0 {
		hc.Timeout = cfg.RequestTimeout
	}
	t := &Transport{base: base, serverURL: u.String(), origin: originOf(u), cfg: cfg, hc: hc,
		clients: map[string]*registration{}, flow: make(chan struct{}, 1)}
	if tok, err := cfg.Store.Load(t.serverURL); err == nil && tok != nil {
		t.token = tok
	}
	return t, nil
}

func originOf(u *url.URL) string { return strings.ToLower(u.Scheme) + "://" + hostPort(u) }

// Token is the current token, or nil.
func (t *Transport) Token() *Token {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.token
}

// Logout forgets the token, in memory and in the store.
func (t *Transport) Logout() error {
	t.mu.Lock()
	t.token = nil
	t.mu.Unlock()
	return t.cfg.Store.Delete(t.serverURL)
}

func (t *Transport) step(kind, text, authURL string) {
	st := Step{Kind: kind, Text: text, URL: authURL}
	var lines []string
	for _, l := range st.Lines() {
		lines = append(lines, "oauth: "+l)
	}
	t.mu.Lock()
	onStep, log := t.cfg.OnStep, t.log
	t.history = append(t.history, lines...)
	if over := len(t.history) - maxHistory; over > 0 {
		t.history = slices.Delete(t.history, 0, over)
	}
	var onActivity func(Activity)
	if t.inFlow && t.onActivity != nil {
		onActivity, t.reported = t.onActivity, true
	}
	t.mu.Unlock()
	if onActivity != nil {
		onActivity(Activity{Running: true, Step: st})
	}
	if onStep != nil {
		onStep(st)
		return
	}
	if log != nil {
		for _, l := range lines {
			log(l)
		}
	}
}

// SetOnStep replaces Config.OnStep (nil: the steps go to LogSteps's log).
func (t *Transport) SetOnStep(f func(Step)) {
	t.mu.Lock()
	t.cfg.OnStep = f
	t.mu.Unlock()
}

// LogSteps makes the steps lines of log when Config.OnStep is nil: the
// connection's own log (package mcp gives it the one the HTTP exchanges
// go to, pane 5 in the inspector). The steps so far (an authorization
// before the connection, reported elsewhere) go to it first.
func (t *Transport) LogSteps(log func(line string)) {
	t.mu.Lock()
	t.log = log
	earlier := slices.Clone(t.history)
	t.mu.Unlock()
	for _, l := range earlier {
		log(l)
	}
}

// maxHistory is how many steps LogSteps replays.
const maxHistory = 32

// RoundTrip sends req with the Bearer token (to the server's origin only),
// authorizing first when the server asks for it.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" || !t.ours(req.URL) {
		return t.base.RoundTrip(req)
	}
	tok := t.Token()
	if tok != nil && tok.Expired(t.cfg.Now()) && tok.RefreshToken != "" {
		tok = t.renew(req.Context(), tok)
	}
	resp, err := t.send(req, tok)
	if err != nil {
		return nil, err
	}
	// Each round answers one 401 or 403 with an authorization and sends
	// the request again; a second 401 for a new token ends it.
	authorized := false
	for {
		challenge, _ := BearerChallenge(resp.Header)
		var aerr error
		switch {
		case resp.StatusCode == http.StatusUnauthorized && authorized:
			aerr = &Error{Step: "authorization", Reason: "the server refused the token it had just been given (401 again)"}
		case resp.StatusCode == http.StatusUnauthorized:
			tok, aerr = t.onUnauthorized(req.Context(), tok, challenge)
		case resp.StatusCode == http.StatusForbidden && challenge.Params["error"] == "insufficient_scope":
			tok, aerr = t.onInsufficientScope(req.Context(), tok, challenge)
		default:
			return resp, nil
		}
		if aerr != nil {
			return t.failed(resp, aerr)
		}
		authorized = true
		if resp, err = t.retry(req, resp, tok); err != nil || resp == nil {
			return resp, err
		}
	}
}

// lock waits for the authorization in progress (the user may be at the
// browser) or for ctx.
func (t *Transport) lock(ctx context.Context) error {
	select {
	case t.flow <- struct{}{}:
		t.mu.Lock()
		t.inFlow = true
		t.mu.Unlock()
		return nil
	case <-ctx.Done():
		return &Error{Step: "authorization", Reason: "gave up waiting for the authorization in progress", Err: context.Cause(ctx)}
	}
}

// unlock ends the flow; an activity reported for it ends too.
func (t *Transport) unlock() {
	t.mu.Lock()
	onActivity := t.onActivity
	reported := t.reported
	t.inFlow, t.reported = false, false
	t.mu.Unlock()
	<-t.flow
	if reported && onActivity != nil {
		onActivity(Activity{})
	}
}

// Preflight authorizes before the first MCP request when the server wants
// it, so that the wait for the person at the browser is bounded by
// Config.LoginTimeout and ctx, not by a request's timeout: with no token
// held it sends a GET (which opens no session and carries no message) and
// runs the flow if the answer is 401 with a Bearer challenge. Any other
// answer leaves the authorization to the first request that needs it; no
// answer within Config.RequestTimeout too.
func (t *Transport) Preflight(ctx context.Context) error {
	if t.Token() != nil {
		return nil
	}
	// The GET's wait for an answer is bounded: a server that never
	// answers it must not hold the command (or the screen) forever.
	get, cancel := context.WithTimeout(ctx, t.cfg.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(get, http.MethodGet, t.serverURL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		if get.Err() != nil && ctx.Err() == nil {
			t.step("discover", fmt.Sprintf("the server did not answer a GET within %s (--timeout): going on without asking whether it wants authorization", t.cfg.RequestTimeout), "")
		}
		return nil // the connection says why, with its own diagnosis
	}
	resp.Body.Close() // not drained: it may be an endless stream
	challenge, ok := BearerChallenge(resp.Header)
	if resp.StatusCode != http.StatusUnauthorized || !ok {
		return nil
	}
	_, err = t.onUnauthorized(ctx, nil, challenge)
	if err != nil {
		t.step("failed", strings.TrimPrefix(err.Error(), "oauth: "), "")
	}
	return err
}

// ours reports whether u is on the MCP server's origin: the token goes
// nowhere else (a redirect to another origin travels without it).
func (t *Transport) ours(u *url.URL) bool { return originOf(u) == t.origin }

func (t *Transport) send(req *http.Request, tok *Token) (*http.Response, error) {
	if tok == nil {
		return t.base.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	return t.base.RoundTrip(r)
}

// retry sends req again with tok, the first answer discarded.
func (t *Transport) retry(req *http.Request, first *http.Response, tok *Token) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return t.failed(first, &Error{Step: "authorization", Reason: "authorized, but the request's body cannot be sent again"})
		}
		body, err := req.GetBody()
		if err != nil {
			return t.failed(first, &Error{Step: "authorization", Reason: "authorized, but the request's body cannot be sent again", Err: err})
		}
		req = req.Clone(req.Context())
		req.Body = body
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(first.Body, 1<<16))
	first.Body.Close()
	return t.send(req, tok)
}

// failed ends a round trip whose authorization failed: the answer is
// dropped and the error, in words, is the round trip's.
func (t *Transport) failed(resp *http.Response, err error) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	t.step("failed", strings.TrimPrefix(err.Error(), "oauth: "), "")
	return nil, err
}

// renew refreshes tok, or returns it unchanged when that fails.
func (t *Transport) renew(ctx context.Context, tok *Token) *Token {
	if t.lock(ctx) != nil {
		return tok
	}
	defer t.unlock()
	if cur := t.Token(); cur != tok {
		return cur // renewed meanwhile
	}
	t.step("refresh", "refreshing the access token at "+tok.TokenEndpoint, "")
	n, err := refresh(ctx, t.hc, tok, t.cfg.Now)
	if err != nil {
		t.step("refresh", "the refresh failed: "+err.Error(), "")
		return tok
	}
	t.keep(n)
	return n
}

func (t *Transport) keep(tok *Token) {
	t.mu.Lock()
	t.token = tok
	t.mu.Unlock()
	if err := t.cfg.Store.Save(t.serverURL, tok); err != nil {
		t.step("failed", "the token could not be kept: "+err.Error(), "")
	}
}

// Preflight is Transport.Preflight for the client's Transport, when it is
// one (nil or another client: nothing to do).
func Preflight(ctx context.Context, c *http.Client) error {
	if c == nil {
		return nil
	}
	if t, ok := c.Transport.(*Transport); ok {
		return t.Preflight(ctx)
	}
	return nil
}
