package urlpolicy

import (
	"net/url"
	"strings"
	"testing"
)

func TestOrigin(t *testing.T) {
	for raw, want := range map[string]string{
		"http://H:80/x":       "http://h:80",
		"http://h/x":          "http://h:80",
		"https://h/":          "https://h:443",
		"https://h:8443":      "https://h:8443",
		"http://[::1]:9/":     "http://[::1]:9",
		"javascript:alert(1)": "",
		"file:///etc/passwd":  "",
	} {
		u, _ := url.Parse(raw)
		if got := Origin(u); got != want {
			t.Errorf("Origin(%q) = %q, want %q", raw, got, want)
		}
	}
	a, _ := url.Parse("http://127.0.0.1:1/a")
	b, _ := url.Parse("http://127.0.0.1:2/a")
	if SameOrigin(a, b) {
		t.Error("two ports are one origin")
	}
}

func TestSecureAndOpenable(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://as.example/token":      true,
		"http://127.0.0.1:9/token":      true,
		"http://localhost:9/token":      true,
		"http://[::1]:9/token":          true,
		"http://evil.example/token":     false,
		"http://127.0.0.1.evil.example": false,
		"javascript:alert(1)":           false,
		"file:///etc/passwd":            false,
		"data:text/html,x":              false,
		"https:///nohost":               false,
		"/relative":                     false,
	} {
		if err := Secure(raw); (err == nil) != ok {
			t.Errorf("Secure(%q) = %v", raw, err)
		}
		host, err := Openable(raw)
		if (err == nil) != ok {
			t.Errorf("Openable(%q) = %v", raw, err)
		}
		if err != nil && strings.Contains(raw, "://") && host != "" && !strings.Contains(err.Error(), host) && strings.HasPrefix(raw, "http:") {
			t.Errorf("Openable(%q): %v does not name the host %s", raw, err, host)
		}
	}
}
