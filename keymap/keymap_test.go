package keymap

import (
	"os"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestEveryBindingHasKeysAndHelp(t *testing.T) {
	m := Default()
	for name, bd := range m.Named() {
		if len(bd.Keys()) == 0 || bd.Help().Key == "" || bd.Help().Desc == "" {
			t.Errorf("%s: keys %q help %+v", name, bd.Keys(), bd.Help())
		}
	}
}

// No two bindings that can be live at once share a key.
func TestNoConflicts(t *testing.T) {
	m := Default()
	global := []key.Binding{m.Global.Quit, m.Global.Help, m.Global.NextPane, m.Global.PrevPane, m.Global.Zoom, m.Global.Restart, m.Global.Compose,
		m.Global.Pane1, m.Global.Pane2, m.Global.Pane3, m.Global.Pane4, m.Global.Pane5, m.Global.Catalog, m.Global.Version}
	list := []key.Binding{m.List.Up, m.List.Down, m.List.PageUp, m.List.PageDown, m.List.Top, m.List.Bottom, m.List.Left, m.List.Right}
	for _, c := range []Context{InFlightPane, PendingPane, TrafficPane, SubscriptionsPane, StderrPane, NetworkPane} {
		seen := map[string]string{}
		all := append(append(append([]key.Binding{}, global...), list...), m.Local(c)...)
		for _, bd := range all {
			for _, k := range bd.Keys() {
				if prev, ok := seen[k]; ok {
					t.Errorf("context %d: %q is both %q and %q", c, k, prev, bd.Help().Desc)
				}
				seen[k] = bd.Help().Desc
			}
		}
	}
}

func TestMatchesSyntheticKeys(t *testing.T) {
	m := Default()
	cases := []struct {
		msg tea.KeyPressMsg
		b   key.Binding
	}{
		{tea.KeyPressMsg{Code: 'q', Text: "q"}, m.Global.Quit},
		{tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, m.Global.Quit},
		{tea.KeyPressMsg{Code: tea.KeyTab}, m.Global.NextPane},
		{tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, m.Global.PrevPane},
		{tea.KeyPressMsg{Code: 'j', Text: "j"}, m.List.Down},
		{tea.KeyPressMsg{Code: tea.KeyDown}, m.List.Down},
		{tea.KeyPressMsg{Code: 'G', Text: "G", ShiftedCode: 'G'}, m.List.Bottom},
		{tea.KeyPressMsg{Code: '%', Text: "%"}, m.Traffic.Jump},
		{tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}, m.Overlay.Submit},
		{tea.KeyPressMsg{Code: tea.KeyEscape}, m.Overlay.Close},
	}
	for _, c := range cases {
		if !key.Matches(c.msg, c.b) {
			t.Errorf("%q does not match %q", c.msg.String(), c.b.Keys())
		}
	}
}

func TestRebind(t *testing.T) {
	m := Default()
	if err := m.Rebind(map[string][]string{"pending.approve": {"A", "ctrl+a"}}); err != nil {
		t.Fatal(err)
	}
	if got := m.Pending.Approve.Keys(); len(got) != 2 || got[0] != "A" || m.Pending.Approve.Help().Key != "A" {
		t.Errorf("keys = %q help %+v", got, m.Pending.Approve.Help())
	}
	if err := m.Rebind(map[string][]string{"pending.nope": {"n"}, "global.quit": {}}); err == nil {
		t.Error("bad names accepted")
	}
	if m.Global.Quit.Keys()[0] != "q" {
		t.Error("a failed Rebind changed bindings")
	}
}

func TestHelpByContext(t *testing.T) {
	m := Default()
	short := m.ShortHelp(PendingPane)
	if short[0].Help().Desc != "answer" || short[len(short)-1].Help().Desc != "quit" {
		t.Errorf("pending short help = %v", short)
	}
	if got := m.ShortHelp(EditorOverlay); len(got) != 4 || got[3].Help().Key != "f1" {
		t.Errorf("editor help has %d keys, help shown as %q", len(got), got[len(got)-1].Help().Key)
	}
	if cols := (Helper{Map: m, Context: TrafficPane}).FullHelp(); len(cols) != 4 {
		t.Errorf("traffic full help has %d columns", len(cols))
	}
}

// TestLoadFile: a key file rebinds by name and the help follows; a
// missing file is the default map; a bad name is an error naming the file.
func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/keys.json"
	if m, err := Load(path); err != nil || m.Global.Compose.Keys()[0] != "n" {
		t.Fatalf("missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte(`{"global.compose":["N"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(path)
	if err != nil || m.Global.Compose.Keys()[0] != "N" || m.Global.Compose.Help().Key != "N" {
		t.Fatalf("rebound: %v %v", err, m.Global.Compose.Help())
	}
	_ = os.WriteFile(path, []byte(`{"global.nope":["N"]}`), 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("bad name: %v", err)
	}
}

// TestNamesAndHints: every group's bindings are named group.field (the
// names keys.json uses, the old ones kept), and a rebinding shows in the
// hint drawn from it.
func TestNamesAndHints(t *testing.T) {
	m := Default()
	named := m.Named()
	for _, n := range []string{"global.quit", "inflight.openresponse", "subscriptions.listen", "tap.answer",
		"catalog.send", "result.saveall", "form.reset", "answer.reject", "text.killword", "timeline.nextsend", "picker.open"} {
		if named[n] == nil {
			t.Errorf("no binding %q", n)
		}
	}
	if err := m.Rebind(map[string][]string{"catalog.send": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	if got := Hint(m.Catalog.Send, Described(m.Catalog.Back, "goes back")); got != "ctrl+y send · esc goes back" {
		t.Errorf("hint %q", got)
	}
	long := []key.Binding{m.Catalog.Send, m.Catalog.Filter, m.Catalog.Open, m.Catalog.Back}
	if got := HintFit(30, long...); got != "ctrl+y send · / filter · esc back" && got != "ctrl+y send · esc back" {
		t.Errorf("HintFit keeps the first and the way out: %q", got)
	}
	if got := HintFit(30, long...); len([]rune(got)) > 30 {
		t.Errorf("HintFit overflows: %q", got)
	}
}

// A keymap file written when the catalog's key was global.explorer still
// rebinds it (global.catalog), the help shows the new key, the names
// listed are the new ones, and naming the binding twice is an error.
func TestOldNameRebinds(t *testing.T) {
	path := t.TempDir() + "/keys.json"
	if err := os.WriteFile(path, []byte(`{"global.explorer":["X"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(path)
	if err != nil || m.Global.Catalog.Keys()[0] != "X" || m.Global.Catalog.Help().Key != "X" {
		t.Fatalf("global.explorer: %v, keys %v", err, m.Global.Catalog.Keys())
	}
	named := m.Named()
	if _, ok := named["global.catalog"]; !ok {
		t.Error("global.catalog is not a name")
	}
	if _, ok := named["global.explorer"]; ok {
		t.Error("global.explorer is still listed as a name")
	}
	d := Default()
	err = d.Rebind(map[string][]string{"global.explorer": {"X"}, "global.catalog": {"Y"}})
	if err == nil || !strings.Contains(err.Error(), "global.catalog and global.explorer") {
		t.Errorf("both names: %v", err)
	}
	if d.Global.Catalog.Keys()[0] != "E" {
		t.Errorf("a failed Rebind changed the catalog's key to %v", d.Global.Catalog.Keys())
	}
}
