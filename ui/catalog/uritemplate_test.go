package catalog

import "testing"

func TestURITemplate(t *testing.T) {
	vals := map[string]string{"var": "value", "hello": "Hello World!", "path": "/foo/bar", "x": "1024", "y": "768", "empty": "", "team": "core", "member": "ada"}
	for tpl, want := range map[string]string{
		"demo://colors/{name}":                 "demo://colors/",
		"demo://teams/{team}/members/{member}": "demo://teams/core/members/ada",
		"{var}":                                "value",
		"{hello}":                              "Hello%20World%21",
		"{+path}/here":                         "/foo/bar/here",
		"map?{x,y}":                            "map?1024,768",
		// RFC 6570 §3.2.1: an empty string is defined, unlike a missing
		// variable (undef is skipped).
		"{?x,y,empty}":   "?x=1024&y=768&empty=",
		"{?x,undef}":     "?x=1024",
		"{;x,empty}":     ";x=1024;empty",
		"X{.empty}":      "X.",
		"{empty}":        "",
		"{undef}":        "",
		"X{.var}":        "X.value",
		"{/var,x}/here":  "/value/1024/here",
		"{;x,y}":         ";x=1024;y=768",
		"{var:3}":        "val",
		"{#path}":        "#/foo/bar",
		"?fixed=yes{&x}": "?fixed=yes&x=1024",
		"demo://resource/dynamic/text/{resourceId}": "demo://resource/dynamic/text/",
	} {
		p, err := parseTemplate(tpl)
		if err != nil {
			t.Fatalf("%s: %v", tpl, err)
		}
		if got := p.expand(vals); got != want {
			t.Errorf("%s: %q, want %q", tpl, got, want)
		}
	}
	p, _ := parseTemplate("demo://teams/{team}/members/{member}{?q}")
	if n := p.names(); len(n) != 3 || n[0] != "team" || n[2] != "q" || p.optional("team") || !p.optional("q") {
		t.Errorf("%v", n)
	}
	for _, bad := range []string{"{unclosed", "{}", "{x:0}"} {
		if _, err := parseTemplate(bad); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
}
