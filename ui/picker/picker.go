// Package picker is the first screen of `mcptui` with no arguments: the
// servers found in the user's host config files, to choose one to inspect.
// Every name, command and path in it is the user's files' text, drawn
// escaped.
package picker

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/internal/hostconfig"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// Model is the picker's state.
type Model struct {
	servers   []hostconfig.Server
	broken    []error
	shown     []int // indexes into servers that pass the filter
	cursor    int
	offset    int
	filter    string
	filtering bool
	width     int
	height    int
	keys      keymap.KeyMap
	pick      keymap.Picker
	st        *themes.Styles
	chosen    *hostconfig.Server
	note      string
}

// New is a picker over servers; broken are the files that could not be read.
func New(servers []hostconfig.Server, broken []error, st *themes.Styles) Model {
	m := Model{servers: servers, broken: broken, keys: keymap.Default(), pick: keymap.Default().Picker, st: st, width: 80, height: 24}
	m.refilter()
	return m
}

// WithKeys is the picker with the bindings k (the user's).
func (m Model) WithKeys(k keymap.KeyMap) Model {
	m.keys, m.pick = k, k.Picker
	return m
}

// Chosen is the server the user opened, if any.
func (m Model) Chosen() (hostconfig.Server, bool) {
	if m.chosen == nil {
		return hostconfig.Server{}, false
	}
	return *m.chosen, true
}

// Init starts nothing.
func (m Model) Init() tea.Cmd { return nil }

// Update moves, filters and chooses.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.filtering {
		switch {
		case key.Matches(msg, m.keys.Traffic.KeepFilter, m.keys.Overlay.Close):
			m.filtering = false
		case key.Matches(msg, m.keys.Text.Backspace):
			if m.filter != "" {
				r := []rune(m.filter)
				m.filter = string(r[:len(r)-1])
			}
		case msg.Text != "":
			m.filter += msg.Text
		}
		m.refilter()
		return m, nil
	}
	l := m.keys.List
	switch {
	case key.Matches(msg, m.keys.Global.Quit), key.Matches(msg, m.keys.Overlay.Close):
		return m, tea.Quit
	case key.Matches(msg, l.Up):
		m.cursor = max(m.cursor-1, 0)
	case key.Matches(msg, l.Down):
		m.cursor = min(m.cursor+1, max(len(m.shown)-1, 0))
	case key.Matches(msg, l.Top):
		m.cursor = 0
	case key.Matches(msg, l.Bottom):
		m.cursor = max(len(m.shown)-1, 0)
	case key.Matches(msg, m.pick.Filter):
		m.filtering = true
	case key.Matches(msg, m.pick.Open):
		if len(m.shown) == 0 {
			return m, nil
		}
		s := m.servers[m.shown[m.cursor]]
		m.chosen = &s
		return m, tea.Quit
	}
	return m, nil
}

func (m *Model) refilter() {
	m.shown = m.shown[:0]
	f := strings.ToLower(m.filter)
	for i, s := range m.servers {
		if f == "" || strings.Contains(strings.ToLower(s.Label()+" "+s.Target()+" "+s.Host.String()), f) {
			m.shown = append(m.shown, i)
		}
	}
	m.cursor = min(m.cursor, max(len(m.shown)-1, 0))
}

// View draws the list in a box, the selected server's details below it,
// and the keys.
func (m Model) View() tea.View {
	w, h := max(m.width, 20), max(m.height, 8)
	detail := m.details(w - 2)
	listH := max(h-2-len(detail)-2-1, 1)
	m.offset = kit.Window(m.offset, m.cursor, len(m.shown), listH)
	nameW := 4
	for _, i := range m.shown {
		nameW = max(nameW, lipgloss.Width(inert.Line(m.servers[i].Label())))
	}
	nameW = min(nameW, (w-2)/3)
	body := []string{kit.Row(m.st, w-2, false, kit.Own("NAME", nameW, m.st.Muted), kit.Txt("  ", m.st.Muted),
		kit.Own("KIND", 7, m.st.Muted), kit.Own("HOST", 16, m.st.Muted), kit.Own("COMMAND OR URL", w-2-nameW-25, m.st.Muted))}
	for row := m.offset; row < len(m.shown) && len(body) < listH+1; row++ {
		s := m.servers[m.shown[row]]
		kind := string(s.Transport)
		st := m.st.Text
		if s.Transport != hostconfig.Stdio || s.Disabled {
			st = m.st.Muted
		}
		body = append(body, kit.Row(m.st, w-2, row == m.cursor,
			kit.Srv(s.Label(), nameW, st), kit.Txt("  ", st),
			kit.Own(kind, 7, m.st.Muted), kit.Own(s.Host.String(), 16, m.st.Muted),
			kit.SrvFree(s.Target(), w-2-nameW-25, st)))
	}
	if len(m.shown) == 0 {
		body = append(body, kit.Row(m.st, w-2, false, kit.Own("no server matches the filter", w-2, m.st.Muted)))
	}
	title := fmt.Sprintf("Servers in your host configs (%d)", len(m.servers))
	if m.filter != "" || m.filtering {
		title += " — filter: " + m.filter
	}
	out := []string{kit.Box(m.st, w, listH+3, title, true, body)}
	for _, d := range detail {
		out = append(out, " "+d)
	}
	out = append(out, kit.Rule(m.st, w), m.footer(w))
	v := tea.NewView(strings.Join(out, "\n"))
	v.AltScreen = true
	return v
}

// details describe the selected server: where it was found, how it
// starts, and what could not be taken as written.
func (m Model) details(w int) []string {
	var out []string
	say := func(st lipgloss.Style, text string) {
		seg := kit.SrvFree(text, w, st)
		out = append(out, seg.St.Render(seg.S))
	}
	if m.note != "" {
		say(m.st.Warn, m.note)
	}
	for _, err := range m.broken {
		say(m.st.Error, "unreadable: "+err.Error())
	}
	if len(m.shown) == 0 {
		return out
	}
	s := m.servers[m.shown[m.cursor]]
	line := func(label, text string) {
		out = append(out, m.st.Muted.Render(label)+kit.SrvFree(text, w-len(label), m.st.Text).S)
	}
	line("file  ", s.File)
	if s.Dir != "" {
		line("cwd   ", s.Dir)
	}
	if len(s.Env) > 0 {
		names := make([]string, len(s.Env))
		for i, e := range s.Env {
			names[i] = e.Name
		}
		line("env   ", strings.Join(names, " ")) // names only: values are often secrets
	}
	for _, p := range s.Problems {
		line("note  ", p)
	}
	return out
}

func (m Model) footer(w int) string {
	if m.filtering {
		return kit.Own("type to filter · "+keymap.Hint(keymap.Described(m.keys.Traffic.KeepFilter, "done"), keymap.Described(m.keys.Text.Backspace, "erase")), w, m.st.Muted).S
	}
	parts := []key.Binding{m.pick.Open, m.keys.List.Up, m.keys.List.Down, m.pick.Filter, m.keys.Global.Quit}
	var hs []string
	for _, b := range parts {
		hs = append(hs, b.Help().Key+" "+b.Help().Desc)
	}
	return kit.Own(strings.Join(hs, " · "), w, m.st.Muted).S
}

// Run shows the picker on the terminal and returns the server chosen, or
// false when the user left without choosing.
func Run(ctx context.Context, servers []hostconfig.Server, broken []error, st *themes.Styles, keys keymap.KeyMap) (hostconfig.Server, bool, error) {
	p := tea.NewProgram(New(servers, broken, st).WithKeys(keys), tea.WithContext(ctx), kit.DetectedColors())
	final, err := p.Run()
	if err != nil {
		return hostconfig.Server{}, false, fmt.Errorf("the server picker: %w", err)
	}
	s, ok := final.(Model).Chosen()
	return s, ok, nil
}
