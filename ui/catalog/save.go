package catalog

import (
	"fmt"
	"mime"
	"os"
	"path"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

func fmtSize(n int) string { return model.FormatSize(n) }

// payload is what saving an item writes: a blob decoded, a text as it is,
// JSON pretty; whole is the whole result as pretty JSON.
func payload(r *result, it *ritem, whole bool) ([]byte, string, error) {
	if whole || it == nil {
		return pretty(r.raw), ".json", nil
	}
	switch {
	case it.blob != "":
		b, err := kit.Decode(it.blob)
		if err != nil {
			return nil, "", fmt.Errorf("the data is not base64: %w", err)
		}
		return b, extFor(it.mime, it.uri, ".bin"), nil
	case it.jv != nil && it.text == "":
		return pretty(it.raw), ".json", nil
	case it.jv != nil:
		return []byte(it.text), ".json", nil
	case it.text != "":
		return []byte(it.text), extFor(it.mime, it.uri, ".txt"), nil
	}
	return pretty(it.raw), ".json", nil
}

// extFor picks a file extension: the URI's own, else the MIME type's.
func extFor(mimeType, uri, def string) string {
	if e := path.Ext(uri); e != "" && len(e) <= 6 && !strings.ContainsAny(e, "/?#") {
		return e
	}
	switch mimeType {
	case "text/markdown":
		return ".md"
	case "text/plain":
		return ".txt"
	case "application/json":
		return ".json"
	}
	if exts, _ := mime.ExtensionsByType(mimeType); len(exts) > 0 {
		return exts[0]
	}
	return def
}

func pretty(b []byte) []byte {
	v := jsontext.Value(append([]byte(nil), b...))
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		return b
	}
	return append([]byte(v), '\n')
}

// safeName keeps a file name to letters, digits and a few marks.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "._")
}

// saveDialog asks where to save.
type saveDialog struct {
	r     *result
	it    *ritem
	whole bool
	path  kit.LineEdit
}

// openSave opens the save dialog with a default path.
func (m *Model) openSave(r *result, whole bool) {
	_, it, _ := r.current(m.w)
	if whole {
		it = nil
	}
	_, ext, err := payload(r, it, whole)
	if err != nil {
		m.say(true, err.Error())
		return
	}
	name := safeName(r.saveBase) + "-" + m.now().Format("20060102-150405")
	if it != nil && it.uri != "" && path.Base(it.uri) != "" && path.Ext(it.uri) != "" {
		name = strings.TrimSuffix(safeName(path.Base(it.uri)), path.Ext(it.uri))
	}
	dir := m.opts.SaveDir
	if dir == "" {
		dir = "."
	}
	m.dlg = dialog{kind: dlgSave, save: &saveDialog{r: r, it: it, whole: whole, path: kit.NewLineEdit(filepath.Join(dir, name+ext))}}
}

type savedMsg struct {
	path string
	n    int
	err  error
}

// save writes the file (in a Cmd); an existing file is not overwritten.
func (m *Model) save(d *saveDialog) tea.Cmd {
	data, _, err := payload(d.r, d.it, d.whole)
	p := strings.TrimSpace(d.path.Value())
	return func() tea.Msg {
		if err != nil {
			return savedMsg{path: p, err: err}
		}
		if p == "" {
			return savedMsg{err: fmt.Errorf("no file name")}
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return savedMsg{path: p, err: err}
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return savedMsg{path: p, err: err}
		}
		return savedMsg{path: p, n: len(data), err: f.Close()}
	}
}
