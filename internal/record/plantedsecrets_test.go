package record

import (
	"strings"
	"testing"
)

// plantedSecret is one form a secret takes on a command line: the
// arguments that carry it, and the secret that must not survive.
type plantedSecret struct {
	name   string
	args   []string
	secret string
	// free: the form marks itself in free text (a screen's, a header's
	// value), not only on a command line (--pass X).
	free bool
}

// secretForms plants s in every form a secret takes on a command line.
func secretForms(s string) []plantedSecret {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI" + s + "In0.c2lnbmF0dXJl" + s
	forms := []plantedSecret{
		{"bare-authorization", []string{"Authorization: Bearer " + s}, s, true},
		{"bare-bearer", []string{"Bearer " + s}, s, true},
		{"bearer-in-text", []string{"--note", "use Bearer " + s + " here"}, s, true},
		{"basic", []string{"Authorization: Basic " + s}, s, true},
		{"header-flag", []string{"-H", "X-Api-Key: " + s}, s, false},
		{"header-eq", []string{"--header=Authorization: Bearer " + s}, s, true},
		{"pass", []string{"--pass", s}, s, false},
		{"pass-eq", []string{"--pass=" + s}, s, false},
		{"db-pass", []string{"--db-pass", s}, s, false},
		{"password", []string{"--password", s}, s, false},
		{"k", []string{"-k", s}, s, false},
		{"p", []string{"-p", s}, s, false},
		{"token-flag", []string{"--token", s}, s, false},
		{"api-key-eq", []string{"--api-key=" + s}, s, false},
		{"json-arg", []string{`{"apiKey":"` + s + `"}`}, s, true},
		{"json-arg-spaced", []string{`{ "api_key" : "` + s + `", "mode": "x" }`}, s, true},
		{"json-config-eq", []string{`--config={"token":"` + s + `"}`}, s, true},
		{"json-config-nested", []string{"--config", `{"auth":{"clientSecret":"` + s + `"}}`}, s, true},
		{"json-with-equals", []string{`{"password":"` + s + `=="}`}, s, true},
		{"assignment", []string{"API_KEY=" + s}, s, false},
		{"env", []string{"-e", "ANYTHING=" + s}, s, false},
		{"url-query", []string{"https://h/mcp?access_token=" + s}, s, false},
		{"url-password", []string{"https://me:" + s + "@h/mcp"}, s, false},
		{"jwt", []string{jwt}, jwt[:40], true},
		{"jwt-in-flag", []string{"--id-token-file=/x", "--assertion=" + jwt}, jwt[:40], true},
	}
	for _, lit := range []string{"ghp_" + s, "github_pat_" + s, "sk-" + s, "sk_live_" + s, "glpat-" + s[:20], "xoxb-" + s,
		"AKIA" + strings.ToUpper(s[:16]), "AIza" + s + s, "npm_" + s + s, "hf_" + s + s} {
		forms = append(forms, plantedSecret{"literal-" + lit[:4], []string{"--opt", lit}, lit, true})
		forms = append(forms, plantedSecret{"literal-in-value-" + lit[:4], []string{"--opt=" + lit}, lit, true})
	}
	return forms
}

// TestRedactionOfPlantedSecrets: every form of secret, planted alone, after
// a program and its options, and between other arguments, is gone from
// what a recording keeps (RedactArgs) and from what a screen or an export
// shows (RedactText, RedactHeader on a header that is not secret by name).
func TestRedactionOfPlantedSecrets(t *testing.T) {
	const s = "S3cr3tV4lu3abcdefghijklmnop0123"
	for _, f := range secretForms(s) {
		for _, around := range [][2][]string{
			{nil, nil},
			{{"npx", "-y", "@scope/server"}, nil},
			{{"server", "--verbose"}, {"--port", "80", "file.txt"}},
		} {
			args := append(append(append([]string{}, around[0]...), f.args...), around[1]...)
			out := RedactArgs(args, false)
			if len(out) != len(args) {
				t.Fatalf("%s: %d args became %d", f.name, len(args), len(out))
			}
			if joined := strings.Join(out, " "); strings.Contains(joined, f.secret) {
				t.Errorf("%s: the secret survived the recording: %q", f.name, out)
			}
		}
		if !f.free {
			continue
		}
		text := strings.Join(f.args, " ")
		if got := RedactText(text); strings.Contains(got, f.secret) {
			t.Errorf("%s: the secret survived a screen's text: %q", f.name, got)
		}
		if got := RedactHeader("X-Note", text); strings.Contains(got, f.secret) {
			t.Errorf("%s: the secret survived a header's value: %q", f.name, got)
		}
	}
	// What is not a secret stays.
	for _, keep := range [][]string{
		{"--port", "8080", "--verbose"},
		{"--config", `{"mode":"fast","depth":3}`},
		{"--passthrough"},
		{"https://h/mcp?page=2"},
		{"Accept: text/event-stream"},
	} {
		if got := RedactArgs(keep, false); strings.Join(got, " ") != strings.Join(keep, " ") {
			t.Errorf("%q became %q", keep, got)
		}
	}
	for _, challenge := range []string{`Bearer realm="mcp", resource_metadata="https://h/.well-known/x"`, `Bearer error="invalid_token"`} {
		if got := RedactHeader("WWW-Authenticate", challenge); got != challenge {
			t.Errorf("the challenge %q became %q", challenge, got)
		}
	}
}

// FuzzPlantedSecrets: a secret of any form of secretForms, planted among
// any other arguments, never survives RedactArgs, and the shape of the
// command line is kept.
func FuzzPlantedSecrets(f *testing.F) {
	f.Add("npx\x00-y\x00server", uint8(0), uint8(3))
	f.Add("-e\x00-H\x00--header", uint8(7), uint8(1))
	f.Add("{\"a\":\x00--config=\x00Bearer", uint8(15), uint8(2))
	const s = "S3cr3tV4lu3abcdefghijklmnop0123"
	forms := secretForms(s)
	f.Fuzz(func(t *testing.T, joined string, kind, pos uint8) {
		if strings.Contains(joined, s[:6]) {
			return
		}
		form := forms[int(kind)%len(forms)]
		others := strings.Split(joined, "\x00")
		at := int(pos) % (len(others) + 1)
		args := append(append(append([]string{}, others[:at]...), form.args...), others[at:]...)
		out := RedactArgs(args, false)
		if len(out) != len(args) {
			t.Fatalf("%d args became %d", len(args), len(out))
		}
		if strings.Contains(strings.Join(out, "\x00"), form.secret) {
			t.Fatalf("%s: the secret survived: %q", form.name, out)
		}
	})
}
