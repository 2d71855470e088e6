package headless

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/extdemo"
)

func serveExtdemo(ctx context.Context, variant string) int {
	v, err := extdemo.ParseVariant(variant)
	if err == nil {
		err = extdemo.Serve(ctx, v, os.Stdin, os.Stdout)
	}
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

// runSkills runs mcptui skills or skill (RunSkills) on args.
func runSkills(t *testing.T, a ...string) ran {
	t.Helper()
	cfg, err := cli.Parse(a)
	if err != nil {
		t.Fatalf("parse %q: %v", a, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := RunSkills(ctx, cfg, &stdout, &stderr)
	return ran{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// TestSkillsListVerified lists the good server's skills: every file read
// and matched against its digest, names, descriptions, sizes shown.
func TestSkillsListVerified(t *testing.T) {
	r := runSkills(t, args("skills", server("extdemo-good"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"git-workflow  skill://git-workflow/SKILL.md  2 files, 262 B",
		"Follow this team's Git conventions",
		"✓ references/branching.md",
		"refunds  skill://acme/billing/refunds/SKILL.md",
		"✓ examples/email.md      55 B  sha256:",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "✗") {
		t.Errorf("a good server's file is marked ✗:\n%s", r.stdout)
	}
}

// TestSkillsTamperedFails: a file whose bytes differ from the listed
// digest (same size) is ✗ with both digests' story, and the exit is 8.
func TestSkillsTamperedFails(t *testing.T) {
	r := runSkills(t, args("skills", server("extdemo-tampered"))...)
	if r.code != ExitCheck {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, ExitCheck, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "✗ examples/email.md") || !strings.Contains(r.stdout, "the entry lists sha256:") {
		t.Errorf("stdout does not mark the tampered file:\n%s", r.stdout)
	}
	if f := r.failure(t); !strings.Contains(f.Message, "1 of 4 files") {
		t.Errorf("failure: %+v", f)
	}
	// The file alone: no content shown, the mismatch, the same exit.
	r = runSkills(t, args("skill", "refunds", "examples/email.md", server("extdemo-tampered"))...)
	if r.code != ExitCheck || strings.Contains(r.stdout, "not coming") || !strings.Contains(r.stdout, "✗ examples/email.md") {
		t.Errorf("skill refunds examples/email.md on a tampered file: exit %d\n%s", r.code, r.stdout)
	}
}

// TestSkillShowsFile shows one verified file's content.
func TestSkillShowsFile(t *testing.T) {
	r := runSkills(t, args("skill", "refunds", "examples/email.md", server("extdemo-good"))...)
	if r.code != ExitOK || !strings.Contains(r.stdout, "✓ examples/email.md") || !strings.Contains(r.stdout, "Your refund of {amount} is on its way.") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// By URI, the skill's file list alone.
	r = runSkills(t, args("skill", "skill://git-workflow/SKILL.md", server("extdemo-good"))...)
	if r.code != ExitOK || !strings.Contains(r.stdout, "✓ references/branching.md") || strings.Contains(r.stdout, "refunds") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runSkills(t, args("skill", "nosuch", server("extdemo-good"))...)
	if r.code != ExitUsage || !strings.Contains(r.failure(t).Message, `no skill named "nosuch"`) {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

// TestSkillsRequireDigests: a dynamic skill has no digests; that is a ?
// and exit 0, or a failure with --require-digests.
func TestSkillsRequireDigests(t *testing.T) {
	r := runSkills(t, args("skills", server("extdemo-dynamic"))...)
	if r.code != ExitOK || !strings.Contains(r.stdout, "? SKILL.md") || !strings.Contains(r.stdout, "resources: dynamic") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runSkills(t, args("skills", "--require-digests", server("extdemo-dynamic"))...)
	if r.code != ExitCheck || !strings.Contains(r.failure(t).Message, "no digest listed (--require-digests)") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

// TestSkillsNotDeclared: a server without the extension gets no
// skills/list; the exit says so.
func TestSkillsNotDeclared(t *testing.T) {
	r := runSkills(t, args("skills", server("demo"))...)
	if r.code != ExitNotDeclared {
		t.Fatalf("exit %d, want %d\n%s", r.code, ExitNotDeclared, r.stderr)
	}
}

// TestSkillsJSON: --format json carries each file's verdict.
func TestSkillsJSON(t *testing.T) {
	r := runSkills(t, args("skills", "--format", "json", server("extdemo-tampered"))...)
	res := r.result(t)
	list := res["skills"].([]any)
	refunds := list[1].(map[string]any)
	files := refunds["files"].([]any)
	if v := files[1].(map[string]any)["verdict"]; v != "mismatch" {
		t.Errorf("verdict %v, want mismatch: %s", v, r.stdout)
	}
}
