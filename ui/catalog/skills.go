package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/skills"
	"github.com/mcptui/mcptui/ui/kit"
)

// skillDetails are a skill entry's lines in the details pane: its URI,
// whether the entry is valid, and its files with sizes and digests.
func (m *Model) skillDetails(s *skills.Skill, w int) []string {
	st := m.st
	var out []string
	line := func(segs ...kit.Seg) { out = append(out, kit.Row(st, w, false, segs...)) }
	line(kit.Own(" uri", 12, st.Muted), kit.SrvFree(s.URI, w-12, st.Text))
	if s.Problem != "" {
		line(kit.Own(" ✗ invalid entry: ", 19, st.Error), kit.SrvFree(s.Problem, w-19, st.Error))
	}
	if s.Dynamic {
		line(kit.Own(" resources: dynamic — no digests published", w, st.Warn))
		return out
	}
	line(kit.Own(fmt.Sprintf(" files      %d, %s", len(s.Files), model.FormatSize(int(s.TotalSize()))), w, st.Muted))
	for _, f := range s.Files {
		size := model.FormatSize(int(f.Size))
		line(kit.Txt("   ", st.Text), kit.SrvFree(s.RelPath(f.URI), max(w-14, 1), st.Accent), kit.Own(" "+size, 11, st.Muted))
	}
	return out
}

// readSkill reads every file of a skill and checks it against the digest
// and size the entry lists: the result shows each file, headed ✓ or ✗,
// and notes which failed.
func (m *Model) readSkill(s skills.Skill) tea.Cmd {
	srv, now := m.srv, m.now
	return m.start("skill "+s.URI, nil, func(ctx context.Context, _ func(conn.Progress)) (json.RawMessage, *result, error) {
		return nil, skillResult(ctx, srv, s, now), nil
	})
}

// skillResult reads and verifies the files of s.
func skillResult(ctx context.Context, srv backend.Catalog, s skills.Skill, now func() time.Time) *result {
	res := &result{title: "skill " + s.URI, raw: s.Raw, saveBase: "skill-" + s.Name}
	files := s.Files
	if s.Dynamic {
		files = []skills.File{{URI: s.URI}}
		res.notes = append(res.notes, note{noteWarn, "resources: dynamic — the server publishes no digests for this skill"})
	}
	if s.Problem != "" {
		res.notes = append(res.notes, note{noteErr, "invalid entry: " + s.Problem})
	}
	ok, bad := 0, 0
	for _, f := range files {
		path := s.RelPath(f.URI)
		r, err := srv.ReadResource(ctx, f.URI)
		if err != nil {
			bad++
			res.notes = append(res.notes, note{noteErr, path + ": " + err.Error()})
			continue
		}
		b, _, err := skills.Bytes(r, f.URI)
		var v skills.Verdict
		if err == nil {
			v = skills.Verify(f, b)
		}
		// mark heads the file's contents; the note says why in full.
		var mark string
		switch {
		case err != nil:
			bad++
			mark = "✗ " + path + ": unreadable"
			res.notes = append(res.notes, note{noteErr, path + ": " + err.Error()})
		case v.OK:
			ok++
			mark = "✓ " + path
		case v.Unlisted:
			mark = "? " + path + ": no digest"
			res.notes = append(res.notes, note{noteWarn, path + ": " + v.Reason})
		default:
			bad++
			mark = "✗ " + path + ": fails verification"
			why := v.Reason
			if v.GotSize == v.WantSize {
				why = "digest " + short(v.Got) + " ≠ listed " + short(v.Want)
			}
			res.notes = append(res.notes, note{noteErr, path + ": " + why + " — not to be used"})
		}
		for i := range r.Contents {
			it := resourceItem(&r.Contents[i], "contents")
			it.head = inert.Line(mark) + " · " + it.head
			res.items = append(res.items, it)
		}
	}
	summary := note{noteOK, fmt.Sprintf("%d of %d files match their sha256 digest and size", ok, len(files))}
	if bad > 0 {
		summary = note{noteErr, fmt.Sprintf("%d of %d files fail verification", bad, len(files))}
	}
	res.notes = append([]note{summary}, res.notes...)
	res.at = now()
	return res
}

// short is a digest cut to its algorithm and 12 hex digits.
func short(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}
