package oauth_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// elsewhere plays every host that is not this machine (evil.example): the
// requests that reach it are logged and answered as a willing
// authorization server would (a client, a token).
type elsewhere struct {
	mu   sync.Mutex
	seen []string
}

func (e *elsewhere) RoundTrip(r *http.Request) (*http.Response, error) {
	if urlpolicy.IsLoopback(r.URL.Hostname()) {
		return http.DefaultTransport.RoundTrip(r)
	}
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
	}
	e.mu.Lock()
	e.seen = append(e.seen, r.Method+" "+r.URL.String()+" "+string(body))
	e.mu.Unlock()
	rec := httptest.NewRecorder()
	switch {
	case strings.HasSuffix(r.URL.Path, "/register"):
		writeJSON(rec, http.StatusCreated, map[string]any{"client_id": "evil-client"})
	case strings.HasSuffix(r.URL.Path, "/token"):
		writeJSON(rec, http.StatusOK, map[string]any{"access_token": "evil-token", "token_type": "Bearer"})
	default:
		writeJSON(rec, http.StatusOK, map[string]any{})
	}
	return rec.Result(), nil
}

func (e *elsewhere) requests() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.seen...)
}

// opened records the URLs handed to the browser, and follows the loopback
// ones as a browser whose user agrees would.
type opened struct {
	t    *testing.T
	mu   sync.Mutex
	urls []string
}

func (o *opened) open(u string) error {
	o.mu.Lock()
	o.urls = append(o.urls, u)
	o.mu.Unlock()
	if p, err := url.Parse(u); err == nil && p.Scheme == "http" && urlpolicy.IsLoopback(p.Hostname()) {
		return browser(o.t)(u)
	}
	return nil
}

func (o *opened) list() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.urls...)
}

// An authorization server whose metadata names a plain-http endpoint on
// another host is refused before anything is sent there: no registration,
// no browser, no code, verifier or secret posted in cleartext.
func TestCleartextEndpointsRefused(t *testing.T) {
	for _, member := range []string{"token_endpoint", "authorization_endpoint", "registration_endpoint"} {
		t.Run(member, func(t *testing.T) {
			as := newAuthServer(t, "")
			as.override = map[string]any{member: "http://evil.example/" + strings.TrimSuffix(member, "_endpoint")}
			if member == "registration_endpoint" {
				as.override[member] = "http://evil.example/register"
			}
			ms := newMCPServer(t, as)
			proxy := &elsewhere{}
			o := &opened{t: t}
			s := connect(t, ms.url(), oauth.Config{HTTPClient: &http.Client{Transport: proxy}, OpenURL: o.open, ClientSecret: "", ClientName: "t"})
			err := s.initialize(t)
			if err == nil || !strings.Contains(err.Error(), member+" must be https") || !strings.Contains(err.Error(), "http://evil.example/") {
				t.Fatalf("initialize: %v, want the %s refused", err, member)
			}
			if got := proxy.requests(); len(got) > 0 {
				t.Errorf("sent in cleartext to another host: %q", got)
			}
			if got := o.list(); len(got) > 0 {
				t.Errorf("handed to the browser: %q", got)
			}
			if n := len(as.regs()); n > 0 {
				t.Errorf("registered %d clients with a server that was refused", n)
			}
		})
	}
}

// Protected resource metadata that names a plain-http authorization server
// elsewhere is refused before its metadata is read.
func TestCleartextIssuerRefused(t *testing.T) {
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	ms.as = func() *authServer { return &authServer{srv: &httptest.Server{URL: "http://evil.example"}} }
	proxy := &elsewhere{}
	s := connect(t, ms.url(), oauth.Config{HTTPClient: &http.Client{Transport: proxy}})
	err := s.initialize(t)
	if err == nil || !strings.Contains(err.Error(), "http://evil.example") || !strings.Contains(err.Error(), "not https") {
		t.Fatalf("initialize: %v, want the authorization server refused", err)
	}
	if got := proxy.requests(); len(got) > 0 {
		t.Errorf("reached the cleartext authorization server: %q", got)
	}
}

// A token request the token endpoint redirects to another origin is not
// sent again there: the code, the verifier and the client secret stay with
// the authorization server.
func TestTokenRequestNotRedirected(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		leaked = append(leaked, r.Header.Get("Authorization")+" "+string(body))
		mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"access_token": "other-token", "token_type": "Bearer"})
	}))
	t.Cleanup(other.Close)
	as := newAuthServer(t, "")
	as.tokenRedirect = other.URL + "/token"
	ms := newMCPServer(t, as)
	s := connect(t, ms.url(), oauth.Config{ClientID: "pre", ClientSecret: "client-secret"})
	err := s.initialize(t)
	if !errors.Is(err, urlpolicy.ErrRedirect) {
		t.Fatalf("initialize: %v, want the token request's redirect refused", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("the token request reached another origin: %q", leaked)
	}
}

// Only https authorization URLs (and http ones to this machine) are shown
// to be opened or handed to the browser: javascript:, file: and data: are
// refused with the reason.
func TestAuthorizationURLOpeningPolicy(t *testing.T) {
	for _, endpoint := range []string{"javascript:alert(document.cookie)//", "file:///etc/passwd", "data:text/html,<script>alert(1)</script>"} {
		t.Run(strings.SplitN(endpoint, ":", 2)[0], func(t *testing.T) {
			as := newAuthServer(t, "")
			as.override = map[string]any{"authorization_endpoint": endpoint}
			ms := newMCPServer(t, as)
			o := &opened{t: t}
			s := connect(t, ms.url(), oauth.Config{OpenURL: o.open})
			if err := s.initialize(t); err == nil {
				t.Fatal("authorized through " + endpoint)
			}
			if got := o.list(); len(got) > 0 {
				t.Errorf("handed to the browser: %q", got)
			}
			for _, st := range s.steps() {
				if st.Kind == "open" {
					t.Errorf("announced to be opened: %q %q", st.Text, st.URL)
				}
			}
		})
	}
}

// The sentence that offers the authorization URL names the URL's own site,
// not the issuer the metadata claims: here the issuer is 127.0.0.1 and the
// URL goes to localhost.
func TestAuthorizationSentenceNamesTheURLsHost(t *testing.T) {
	as := newAuthServer(t, "")
	port := as.srv.URL[strings.LastIndexByte(as.srv.URL, ':')+1:]
	site := "http://localhost:" + port
	as.override = map[string]any{"authorization_endpoint": site + "/authorize"}
	ms := newMCPServer(t, as)
	s := connect(t, ms.url(), oauth.Config{})
	_ = s.initialize(t) // the flow's outcome does not matter here
	var found bool
	for _, st := range s.steps() {
		if st.Kind != "open" {
			continue
		}
		found = true
		if !strings.Contains(st.Text, "at "+site+" ") || strings.Contains(st.Text, as.issuer()) {
			t.Errorf("the sentence %q should name %s, not the issuer %s", st.Text, site, as.issuer())
		}
	}
	if !found {
		t.Fatalf("no open step: %+v", s.steps())
	}
}

// OpenBrowser hands $BROWSER only what the URL-opening policy lets open.
func TestOpenBrowserRefusesNonWebURLs(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$1\" >> "+log+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", script)
	for _, u := range []string{"javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "http://evil.example/authorize", "/relative"} {
		if err := oauth.OpenBrowser(u); err == nil {
			t.Errorf("OpenBrowser(%q) opened it", u)
		}
	}
	if err := oauth.OpenBrowser("https://as.example/authorize?x=1"); err != nil {
		t.Fatalf("OpenBrowser(https): %v", err)
	}
	var got []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got, _ = os.ReadFile(log); strings.Contains(string(got), "\n") {
			break
		}
	}
	if string(got) != "https://as.example/authorize?x=1\n" {
		t.Errorf("the browser was given %q, want only the https URL", got)
	}
}

// The preflight GET is bounded by RequestTimeout: a server that never
// answers it does not hold the command forever.
func TestPreflightBounded(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // never a header
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	var mu sync.Mutex
	var steps []string
	tr, err := oauth.New(nil, srv.URL+"/mcp", oauth.Config{RequestTimeout: 100 * time.Millisecond, OnStep: func(st oauth.Step) {
		mu.Lock()
		steps = append(steps, st.Text)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- tr.Preflight(context.Background()) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Preflight: %v, want nil (the connection goes on and says why)", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("Preflight still waiting for a GET that never answers")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(steps) != 1 || !strings.Contains(steps[0], "did not answer a GET within 100ms") {
		t.Errorf("steps %q, want the wait said", steps)
	}
}
