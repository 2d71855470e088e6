package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/skills"
)

// RunSkills runs mcptui skills and mcptui skill: the server's skills (or
// one, or one file of one) with every file read and checked against the
// SHA-256 digest and size its entry lists.
func RunSkills(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	rec, err := OpenRecorder(cfg)
	if err != nil {
		f := fail(KindInternal, "%v", err)
		report(stderr, f)
		return f.Exit
	}
	s, f := connect(ctx, cfg, ConnectOptions{Recorder: rec, Stderr: stderr})
	defer s.closeOnPanic()
	if f == nil {
		f = s.skills(ctx, stdout)
	}
	if err := s.close(); err != nil && f == nil {
		f = fail(KindInternal, "%v", err)
	}
	if f != nil {
		report(stderr, f)
		return f.Exit
	}
	return ExitOK
}

// checkedFile is one file of a skill with its verdict.
type checkedFile struct {
	URI     string `json:"uri"`
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	Digest  string `json:"digest,omitempty"`
	Verdict string `json:"verdict"` // ok, mismatch, unlisted, unread
	Reason  string `json:"reason,omitempty"`
	content []byte
}

// checkedSkill is a skill entry with its files checked.
type checkedSkill struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Frontmatter json.RawMessage `json:"frontmatter,omitempty"`
	Dynamic     bool            `json:"dynamic,omitempty"`
	Problem     string          `json:"problem,omitempty"`
	Files       []checkedFile   `json:"files"`
}

func (s *session) skills(ctx context.Context, stdout io.Writer) *Failure {
	c := s.client
	decl := skills.Declared(c.Session().Capabilities)
	if !decl.Declared {
		return fail(KindNotDeclared, "the server declares no %s extension under capabilities.extensions: skills/list was not sent", skills.ExtensionID)
	}
	opts := s.requestOptions("skills/list")
	list, err := skills.List(ctx, c, opts...)
	if err != nil {
		return s.failure(ctx, err)
	}
	if s.cfg.Mode == cli.ModeSkill {
		sk, err := skills.Lookup(list, s.cfg.Target)
		if err != nil && strings.Contains(s.cfg.Target, "://") {
			// Not listed: skills/get answers for every skill served.
			sk, err = skills.Get(ctx, c, s.cfg.Target, s.requestOptions("skills/get")...)
			if err != nil {
				return s.failure(ctx, err)
			}
		}
		if err != nil {
			return fail(KindUsage, "%v", err)
		}
		list = []skills.Skill{sk}
	}
	var checked []checkedSkill
	bad, missing, files := 0, 0, 0
	for _, sk := range list {
		cs := checkedSkill{URI: sk.URI, Name: sk.Name, Description: sk.Description, Frontmatter: sk.Frontmatter, Dynamic: sk.Dynamic, Problem: sk.Problem}
		entries := sk.Files
		if sk.Dynamic {
			entries = []skills.File{{URI: sk.URI}}
		}
		for _, e := range entries {
			if s.cfg.File != "" && e.URI != s.cfg.File && sk.RelPath(e.URI) != s.cfg.File {
				continue
			}
			files++
			cf := checkedFile{URI: e.URI, Path: sk.RelPath(e.URI), Size: e.Size, Digest: e.Digest}
			b, _, err := skills.Read(ctx, c, e.URI, s.requestOptions("resources/read "+e.URI)...)
			if err != nil {
				if s.stopped() {
					return s.failure(ctx, err)
				}
				cf.Verdict, cf.Reason = "unread", err.Error()
				bad++
				cs.Files = append(cs.Files, cf)
				continue
			}
			v := skills.Verify(e, b)
			switch {
			case v.OK:
				cf.Verdict, cf.content = "ok", b
			case v.Unlisted:
				cf.Verdict, cf.Reason, cf.content = "unlisted", v.Reason, b
				cf.Size = v.GotSize
				missing++
			default:
				cf.Verdict, cf.Reason = "mismatch", v.Reason
				bad++
			}
			cs.Files = append(cs.Files, cf)
		}
		if sk.Problem != "" {
			bad++
		}
		checked = append(checked, cs)
	}
	if s.cfg.File != "" && files == 0 {
		return fail(KindUsage, "the skill %s lists no file %q", list[0].URI, s.cfg.File)
	}
	if err := printSkills(stdout, s.cfg, checked); err != nil {
		return fail(KindInternal, "writing the result: %v", err)
	}
	switch {
	case bad > 0:
		return fail(KindCheck, "%d of %d files (or entries) failed verification: their content must not be used", bad, files)
	case missing > 0 && s.cfg.RequireDigests:
		return fail(KindCheck, "%d of %d files have no digest listed (--require-digests)", missing, files)
	}
	return nil
}

// mark is the verdict's sign in text output.
func mark(verdict string) string {
	switch verdict {
	case "ok":
		return "✓"
	case "unlisted":
		return "?"
	}
	return "✗"
}

func printSkills(w io.Writer, cfg *cli.Config, list []checkedSkill) error {
	if cfg.Format == "json" {
		b, err := json.Marshal(map[string]any{"skills": list})
		if err != nil {
			return err
		}
		return inert.WriteJSON(w, b, true)
	}
	if cfg.File != "" {
		// One file: its verdict, then its content when it may be used.
		f := list[0].Files[0]
		if f.content == nil {
			_, err := fmt.Fprintf(w, "%s %s  %s\n", mark(f.Verdict), inert.Line(f.Path), inert.Line(f.Reason))
			return err
		}
		if _, err := fmt.Fprintf(w, "%s %s  %d B  %s\n\n", mark(f.Verdict), inert.Line(f.Path), f.Size, verdictNote(f)); err != nil {
			return err
		}
		_, err := io.WriteString(w, inert.Text(string(f.content)))
		return err
	}
	var b strings.Builder
	if len(list) == 0 {
		b.WriteString("no skills listed (a listing may be partial: mcptui skill URI asks skills/get)\n")
	}
	for i, sk := range list {
		if i > 0 {
			b.WriteByte('\n')
		}
		var total int64
		for _, f := range sk.Files {
			total += f.Size
		}
		fmt.Fprintf(&b, "%s  %s  %s, %s\n", inert.Line(sk.Name), inert.Line(sk.URI), plural(len(sk.Files), "file"), size(total))
		if sk.Description != "" {
			fmt.Fprintf(&b, "  %s\n", inert.Line(sk.Description))
		}
		if sk.Problem != "" {
			fmt.Fprintf(&b, "  ✗ invalid entry: %s\n", inert.Line(sk.Problem))
		}
		if sk.Dynamic {
			b.WriteString("  resources: dynamic (no digests published)\n")
		}
		width := 0
		for _, f := range sk.Files {
			width = max(width, inert.Width(inert.Line(f.Path)))
		}
		for _, f := range sk.Files {
			fmt.Fprintf(&b, "  %s %s  %8s  %s\n", mark(f.Verdict), inert.Pad(inert.Line(f.Path), width), size(f.Size), inert.Line(verdictNote(f)))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// verdictNote is the digest (shortened) when it matched, else the reason.
func verdictNote(f checkedFile) string {
	if f.Verdict == "ok" {
		d := f.Digest
		if len(d) > 19 {
			d = d[:19] + "…"
		}
		return d
	}
	return f.Reason
}

func size(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
