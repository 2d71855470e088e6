package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The inspector and the headless commands take --answer with the same
// vocabulary, parsed by the same code, into the same policies.
func TestAnswerPoliciesSharedByInspectorAndHeadless(t *testing.T) {
	rules := "--answer sampling=text:hello --answer roots=reject --answer elicitation=decline --answer x/custom=answer"
	inspector, err := Parse(strings.Fields(rules + " -- srv"))
	if err != nil {
		t.Fatal(err)
	}
	headless, err := Parse(strings.Fields("tools " + rules + " -- srv"))
	if err != nil {
		t.Fatal(err)
	}
	want := "roots=reject sampling=text:hello elicitation=decline x/custom=answer"
	for name, cfg := range map[string]*Config{"inspector": inspector, "headless": headless} {
		if got := cfg.Policies().String(); got != want {
			t.Errorf("%s: policies %q, want %q", name, got, want)
		}
	}
	// With no rule: roots answered (with --root's roots, or none),
	// sampling and elicitation ask.
	plain, err := Parse(strings.Fields("-- srv"))
	if err != nil {
		t.Fatal(err)
	}
	if got := plain.Policies().String(); got != "roots=answer sampling=ask elicitation=ask" {
		t.Errorf("defaults %q", got)
	}
}

func TestAnswerVocabulary(t *testing.T) {
	dir := t.TempDir()
	roots := filepath.Join(dir, "roots.json")
	if err := os.WriteFile(roots, []byte(`{"roots":[{"uri":"file:///srv"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"uri":"file:///srv"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for arg, want := range map[string]string{
		"roots=ask":                    "roots=ask",
		"roots/list=answer":            "roots=answer",
		"roots=@" + roots:              "roots=@" + roots,
		"sampling=ask":                 "sampling=ask",
		"sampling=reject":              "sampling=reject",
		"elicitation=answer":           "elicitation=accept-defaults",
		"elicitation=cancel":           "elicitation=cancel",
		"elicitation/create=ask":       "elicitation=ask",
		"ping=reject":                  "ping=reject",
		"sampling/createMessage=text:": "sampling=text:",
	} {
		cfg, err := Parse([]string{"--answer", arg, "--", "srv"})
		if err != nil {
			t.Errorf("%s: %v", arg, err)
			continue
		}
		r := cfg.Answers[0]
		if got := r.Policy().Rule(r.Method); got != want {
			t.Errorf("%s: rule %q, want %q", arg, got, want)
		}
	}
	for _, arg := range []string{"sampling=answer", "roots=maybe", "elicitation=yes", "nothing", "roots=@" + bad, "bogus=ask"} {
		if _, err := Parse([]string{"--answer", arg, "--", "srv"}); !errors.Is(err, ErrUsage) {
			t.Errorf("%s: err %v, want a usage error", arg, err)
		}
	}
}
