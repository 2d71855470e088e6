package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeMaxLines is how long the README may grow: it says what mcptui is,
// how to install and run it and where the rest is; the rest is in docs/.
const readmeMaxLines = 250

// TestReadmeHoldsTogether guards the pages against the damage merges do: a paragraph pasted
// twice, or a stray line that cuts a table in two (both happened once, unseen, for a whole stop).
func TestReadmeHoldsTogether(t *testing.T) {
	for _, page := range docFiles(t) {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatalf("reading %s: %v", page, err)
		}
		seen := map[string]int{}
		for i, block := range strings.Split(string(raw), "\n\n") {
			block = strings.TrimSpace(block)
			if len(block) < 200 || strings.HasPrefix(block, "```") {
				continue
			}
			if first, ok := seen[block]; ok {
				t.Errorf("%s: paragraph %d repeats paragraph %d: %.80q…", page, i, first, block)
			}
			seen[block] = i
		}
		lines := strings.Split(string(raw), "\n")
		inCode := false
		for i := 0; i < len(lines); i++ {
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
				inCode = !inCode
			}
			if inCode || !strings.HasPrefix(lines[i], "|") {
				continue
			}
			// A table: its rows run until a blank line; every one of them is a row.
			start := i
			for ; i < len(lines) && lines[i] != ""; i++ {
				if !strings.HasPrefix(lines[i], "|") {
					t.Errorf("%s line %d cuts the table of line %d: %.80q", page, i+1, start+1, lines[i])
					break
				}
			}
		}
	}
}

// TestReadmeIsShort keeps the README a front page: what mcptui is, a
// screenshot, install, the two commands, a tour and the links.
func TestReadmeIsShort(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), "\n"); n >= readmeMaxLines {
		t.Errorf("README.md has %d lines, want under %d: move the detail to a page of docs/", n, readmeMaxLines)
	}
}

// TestReadmeTestCommandIsCI: the README's test command is the one .ci/run
// runs, word for word.
func TestReadmeTestCommandIsCI(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(ci), "# The README's test command")
	if !ok {
		t.Fatal(`.ci/run has no "# The README's test command" line`)
	}
	var want string
	for _, l := range strings.Split(after, "\n") {
		if strings.HasPrefix(l, "go test") {
			want = l
			break
		}
	}
	if want == "" {
		t.Fatal(".ci/run: no go test line after its README comment")
	}
	var found []string
	for _, c := range readmeCommands("README.md", string(readme)) {
		if strings.HasPrefix(c.text, "go test") {
			found = append(found, c.text)
		}
	}
	if len(found) != 1 || found[0] != want {
		t.Errorf("the README's test commands are %q; .ci/run runs %q", found, want)
	}
}

// mdLink is a Markdown link or image target: ](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinksResolve: every relative link of a page names a file of the
// repository, and its #anchor a heading of that page (GitHub's slugs).
func TestDocsLinksResolve(t *testing.T) {
	for _, page := range docFiles(t) {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		inCode := false
		for i, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inCode = !inCode
			}
			if inCode {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				path := page
				if file != "" {
					path = filepath.Join(filepath.Dir(page), file)
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: the link %s names no file: %v", page, i+1, target, err)
					continue
				}
				if anchor != "" && !hasAnchor(t, path, anchor) {
					t.Errorf("%s:%d: the link %s names no heading of %s", page, i+1, target, path)
				}
			}
		}
	}
}

// hasAnchor reports whether a Markdown page has a heading whose GitHub
// slug is anchor.
func hasAnchor(t *testing.T, path, anchor string) bool {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if h, ok := strings.CutPrefix(line, "#"); ok && slug(strings.TrimLeft(h, "#")) == anchor {
			return true
		}
	}
	return false
}

// slug is GitHub's anchor for a heading: lower case, punctuation dropped,
// spaces as hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestReadmeSingleQuotedVariables: the docs once wrote
// --header 'Authorization: Bearer $TOKEN', which sends the text $TOKEN.
func TestReadmeSingleQuotedVariables(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`mcptui --header 'Authorization: Bearer $TOKEN' URL`, "$TOKEN"},
		{`mcptui --header "Authorization: Bearer $TOKEN" URL`, ""},
		{`mcptui tools -H 'X-Api-Key: …' URL`, ""},
		{`mcptui load --max-error-rate 1% 'a $' URL`, ""},
		{`mcptui check -e "A='$HOME'" -- x`, ""},
		{`mcptui check 'x ${HOME}' -- x`, "${HOME}"},
	} {
		if got := singleQuotedVar(c.text); got != c.want {
			t.Errorf("singleQuotedVar(%s) = %q, want %q", c.text, got, c.want)
		}
	}
}
