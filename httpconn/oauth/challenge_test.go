package oauth_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/mcptui/mcptui/httpconn/oauth"
)

func TestParseChallenges(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []oauth.Challenge
	}{
		{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`,
			[]oauth.Challenge{{Scheme: "Bearer", Params: map[string]string{"resource_metadata": "https://x/.well-known/oauth-protected-resource", "scope": "a b"}}}},
		{`Basic realm="r", Bearer error="insufficient_scope", scope=write`,
			[]oauth.Challenge{{Scheme: "Basic", Params: map[string]string{"realm": "r"}},
				{Scheme: "Bearer", Params: map[string]string{"error": "insufficient_scope", "scope": "write"}}}},
		{`Bearer`, []oauth.Challenge{{Scheme: "Bearer", Params: map[string]string{}}}},
		{`Bearer Error="a \"quoted\" one"`, []oauth.Challenge{{Scheme: "Bearer", Params: map[string]string{"error": `a "quoted" one`}}}},
		{`Negotiate abc==, Bearer scope="x"`, []oauth.Challenge{{Scheme: "Negotiate", Params: map[string]string{}},
			{Scheme: "Bearer", Params: map[string]string{"scope": "x"}}}},
		{`"garbage`, nil},
		{``, nil},
	} {
		if got := oauth.ParseChallenges(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.in, got, tc.want)
		}
	}
	h := http.Header{"Www-Authenticate": {`Basic realm="x"`, `Bearer scope="s"`}}
	if c, ok := oauth.BearerChallenge(h); !ok || c.Params["scope"] != "s" {
		t.Errorf("BearerChallenge: %v %v", c, ok)
	}
}

func TestResourceMatches(t *testing.T) {
	for _, tc := range []struct {
		resource, server string
		want             bool
	}{
		{"https://h/mcp", "https://h/mcp", true},
		{"https://H:443/mcp/", "https://h/mcp", true},
		{"https://h", "https://h/mcp", true},
		{"https://h/mc", "https://h/mcp", false},
		{"https://h/mcp", "http://h/mcp", false},
		{"https://evil.example.com/mcp", "https://h/mcp", false},
		{"https://h:8443/mcp", "https://h/mcp", false},
		{"https://h/mcp#f", "https://h/mcp", false},
	} {
		if got := oauth.ResourceMatches(tc.resource, tc.server); got != tc.want {
			t.Errorf("ResourceMatches(%q, %q) = %v", tc.resource, tc.server, got)
		}
	}
}
