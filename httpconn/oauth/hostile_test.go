package oauth_test

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcptui/mcptui/httpconn/oauth"
)

// Any WWW-Authenticate value parses in time, to challenges with schemes.
func FuzzParseChallenges(f *testing.F) {
	for _, s := range []string{`Bearer resource_metadata="x", scope="a b"`, `Basic realm="r", Bearer error=insufficient_scope`,
		`"`, `,,,`, `Bearer a="\`, `x y=, z`, `Negotiate abc==`, strings.Repeat(`Bearer a=b, `, 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range oauth.ParseChallenges(s) {
			if c.Scheme == "" {
				t.Fatalf("a challenge without a scheme in %q", s)
			}
		}
	})
}

// A metadata document that never ends is cut at 1 MiB, and refused.
func TestEndlessMetadata(t *testing.T) {
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	var sent atomic.Int64 // written by the server's goroutine
	ms.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"resource":"`)
			chunk := strings.Repeat("x", 64<<10)
			for sent.Load() < 64<<20 { // until the client hangs up, at most 64 MiB
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
				sent.Add(int64(len(chunk)))
			}
		default:
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
		}
	})
	err := connect(t, ms.url(), oauth.Config{}).initialize(t)
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("error: %v", err)
	}
	if sent.Load() >= 64<<20 {
		t.Errorf("the whole endless document was read")
	}
}
