package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// The server view, pane 8: what the server said of itself (serverInfo,
// its instructions as Markdown, its capabilities), the protocol version
// and why it was chosen, the log level, and the live lint's findings, each
// with its rule's text, section and fix; enter on a finding goes to its
// traffic line. It takes the middle slot in place of traffic (3 brings
// traffic back). The document is built once per change, not per frame:
// its size follows the server's text, bounded by kit.Markdown's cut and
// the model's bound on findings.

// maxCapabilityBytes is the largest capabilities object listed member by
// member; a larger one is opened with o.
const maxCapabilityBytes = 64 << 10

// serverLine is one line of the server view: drawn (safe) text, and the
// traffic line of the finding it belongs to (0: none).
type serverLine struct {
	text string
	seq  uint64
}

// serverDoc is the server view's document and what it was built from.
type serverDoc struct {
	key   string
	w     int
	lines []serverLine
}

// serverLines is the document for width w, rebuilt when what it shows
// changed.
func (m *Model) serverLines(w int) []serverLine {
	c := m.sess.Conn()
	cost := m.catalogCost()
	k := fmt.Sprintf("%d|%d|%d|%d|%s|%s|%p|%d|%s", w, c.Gen, c.Phase, c.Since.UnixNano(), c.LogLevel, c.LogLevelErr, m.styles, m.sess.FindingCount(), cost)
	if m.views.serverDoc.key != k {
		m.views.serverDoc = serverDoc{key: k, w: w, lines: buildServerDoc(m.styles, m.sess, w, keymap.Hint(keymap.Described(m.keys.Global.LogLevel, "changes it")))}
		if cost != "" {
			// --host/--model: what the tool list costs in context.
			d := &docWriter{st: m.styles, w: w, lines: m.views.serverDoc.lines}
			d.heading("Context")
			d.own(0, "tool list", cost, m.styles.Text)
			m.views.serverDoc.lines = d.lines
		}
	}
	return m.views.serverDoc.lines
}

// catalogCost is what the catalog found the tool list costs in context
// ("" without --host or --model, or before it is counted).
func (m *Model) catalogCost() string {
	if m.rich.catalog == nil {
		return ""
	}
	return m.rich.catalog.ContextCost()
}

// docWriter gathers the document's lines.
type docWriter struct {
	st    *themes.Styles
	w     int
	lines []serverLine
}

func (d *docWriter) add(seq uint64, text string) { d.lines = append(d.lines, serverLine{text, seq}) }

func (d *docWriter) heading(s string) {
	if len(d.lines) > 0 {
		d.add(0, "")
	}
	d.add(0, d.st.Accent.Bold(true).Render(" "+s))
}

// field is a label and a value of server text, cut to one line.
func (d *docWriter) field(safeLabel, value string, vs lipgloss.Style) {
	d.add(0, kit.Row(d.st, d.w, false, kit.Own("   "+safeLabel, 16, d.st.Muted), kit.Srv(value, max(d.w-16, 1), vs)))
}

// own is a label and the program's own text, wrapped under the label.
func (d *docWriter) own(seq uint64, safeLabel, safeText string, ts lipgloss.Style) {
	label := safeLabel
	for i, l := range kit.WrapSafe(safeText, max(d.w-16, 8)) {
		if i > 0 {
			label = ""
		}
		d.add(seq, kit.Row(d.st, d.w, false, kit.Own("   "+label, 16, d.st.Muted), kit.Txt(l, ts)))
	}
}

// buildServerDoc lays the server view out at width w; levelHint is how to
// change the log level ("" when it cannot be).
func buildServerDoc(st *themes.Styles, s *model.Session, w int, levelHint string) []serverLine {
	d := &docWriter{st: st, w: w}
	c := s.Conn()
	info := c.Server
	if c.Phase != model.PhaseReady && c.ServerName == "" {
		d.add(0, kit.Row(st, w, false, kit.Own("  the server is "+c.Phase.String()+": what it says of itself shows once it is ready", w, st.Muted)))
	}
	d.heading("Server")
	d.field("name", c.ServerName, st.Text.Bold(true))
	if info.Title != "" {
		d.field("title", info.Title, st.Text)
	}
	d.field("version", c.ServerVersion, st.Text)
	if info.WebsiteURL != "" {
		d.field("website", info.WebsiteURL, st.Info)
	}
	if info.Description != "" {
		d.field("description", info.Description, st.Text)
	}
	for i, icon := range iconsText(info.Icons) {
		label := ""
		if i == 0 {
			label = "icons"
		}
		d.field(label, icon, st.Text)
	}

	lintSection(d, s, true)
	d.heading("Instructions")
	if strings.TrimSpace(info.Instructions) == "" {
		d.own(0, "", "the server gives none", st.Muted)
	} else {
		for _, l := range kit.Markdown(info.Instructions, max(w-4, 8), st) {
			d.add(0, "   "+l)
		}
	}

	d.heading("Protocol")
	d.field("version", c.Protocol, st.Text.Bold(true))
	if info.Reason != "" {
		d.own(0, "why", inert.Line(info.Reason), st.Text) // may quote the server's versions
	}
	if len(c.Offered) > 0 {
		d.field("offered", strings.Join(c.Offered, "  "), st.Text)
	}
	switch {
	case info.Pinned:
		d.own(0, "allowed", "pinned to "+strings.Join(info.Allowed, "")+" (--protocol, or V): no probe was sent", st.Text)
	case len(info.Allowed) > 0:
		d.own(0, "allowed", strings.Join(info.Allowed, "  ")+" (most preferred first; --protocol restricts, V reconnects at another)", st.Text)
	}
	if info.Probes+info.Spawns > 0 {
		d.own(0, "attempts", fmt.Sprintf("%d probe(s) sent, %d process(es) started", info.Probes, info.Spawns), st.Text)
	}
	for i, step := range c.Steps {
		label := ""
		if i == 0 {
			label = "steps"
		}
		d.own(0, label, fmtClock(step.Time)+"  "+inert.Line(step.Text), st.Muted) // may quote the server
	}
	switch {
	case c.LogLevel != "" && c.LogLevelErr == "":
		level := c.LogLevel
		if levelHint != "" {
			level += " (" + levelHint + ")"
		}
		d.own(0, "log level", level, st.Text)
	case c.LogLevelErr != "":
		d.own(0, "log level", c.LogLevel+" "+inert.Line(c.LogLevelErr), st.Warn) // quotes the server's error
	}

	d.heading("Capabilities")
	caps := capabilityRows(info.Capabilities)
	if len(caps) == 0 && len(info.Capabilities) > 0 {
		d.own(0, "", fmt.Sprintf("%s of capabilities: o opens them", model.FormatSize(len(info.Capabilities))), st.Muted)
	}
	if len(caps) == 0 && len(info.Capabilities) == 0 {
		d.own(0, "", "none declared", st.Muted)
	}
	for _, r := range caps {
		d.field(inert.Line(r[0]), r[1], st.Text) // the server's capability name
	}

	lintSection(d, s, false)
	return d.lines
}

// lintSection lists the live lint's findings with their rules: early in
// the document when there are some (findingsFirst), at its end saying
// there are none otherwise.
func lintSection(d *docWriter, s *model.Session, findingsFirst bool) {
	st, w := d.st, d.w
	fs := s.Findings()
	if (len(fs) > 0) != findingsFirst {
		return
	}
	d.heading(fmt.Sprintf("Lint (%d)", s.FindingCount()))
	if len(fs) == 0 {
		d.own(0, "", "no rule of the specification broken so far (the rules of mcptui check that can be judged from traffic)", st.Muted)
	}
	if n := s.FindingCount() - len(fs); n > 0 {
		d.own(0, "", fmt.Sprintf("%d older finding(s) no longer kept", n), st.Muted)
	}
	for _, f := range fs {
		r, ok := rules.Get(f.Rule)
		level, section := "", ""
		if ok {
			level, section = r.Level.String(), r.Section
		}
		d.add(f.Seq, kit.Row(st, w, false, kit.Own("   ✗ ", 5, st.Error), kit.Own(f.Rule, max(w/3, 20), st.Text.Bold(true)),
			kit.Own(level+"  ", 14, st.Warn), kit.Own(section, max(w-w/3-19, 1), st.Muted)))
		d.add(f.Seq, kit.Row(st, w, false, kit.Own("     seen", 16, st.Muted), kit.Srv(f.Message, max(w-16, 1), st.Text)))
		if ok {
			d.own(f.Seq, "  rule", r.Text, st.Text)
			d.own(f.Seq, "  fix", r.Fix, st.Info)
		}
	}
}

// iconsText lists the icons of serverInfo as text: address, type, sizes.
func iconsText(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var icons []struct {
		Src      string   `json:"src"`
		MimeType string   `json:"mimeType"`
		Sizes    []string `json:"sizes"`
		Theme    string   `json:"theme"`
	}
	if json.Unmarshal(raw, &icons) != nil {
		return []string{string(raw)}
	}
	var out []string
	for i, ic := range icons {
		if i == 8 {
			out = append(out, fmt.Sprintf("… and %d more", len(icons)-i))
			break
		}
		src := ic.Src
		if strings.HasPrefix(src, "data:") {
			src = fmt.Sprintf("(inline data, %s)", model.FormatSize(len(src)))
		}
		parts := []string{src}
		for _, p := range []string{ic.MimeType, strings.Join(ic.Sizes, " "), ic.Theme} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		out = append(out, strings.Join(parts, " · "))
	}
	return out
}

// capabilityRows are the capabilities object's members in their order,
// each with its value as compact JSON; nil for a huge or broken object.
func capabilityRows(raw json.RawMessage) [][2]string {
	if len(raw) == 0 || len(raw) > maxCapabilityBytes {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out [][2]string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		name, _ := t.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil
		}
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return nil
		}
		out = append(out, [2]string{name, b.String()})
	}
	return out
}

// drawServer draws the visible lines of the server view.
func (m *Model) drawServer(w, h int) []string {
	lines := m.serverLines(w)
	l := &m.lists[paneServer]
	l.clamp(len(lines))
	l.show(h)
	var out []string
	i := l.offset
	for ; i < len(lines) && len(out) < h; i++ {
		text := kit.Fit(lines[i].text, w)
		if i == l.cursor && m.focus == paneServer {
			text = m.styles.Selected.Render(kit.Fit(ansi.Strip(lines[i].text), w))
		}
		out = append(out, text)
	}
	m.scrolls[paneServer] = kit.Scroll{Above: l.offset, Below: len(lines) - i}
	return out
}

// serverTitle is pane 8's title.
func (m *Model) serverTitle() string {
	t := "8 Server"
	if c := m.sess.Conn(); c.ServerName != "" {
		t += " — " + inert.Fit(c.ServerName, 40)
	}
	if n := m.sess.FindingCount(); n > 0 {
		t += fmt.Sprintf(" · lint %d", n)
	}
	return t
}

// serverKey handles pane 8's own keys.
func (m *Model) serverKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Server
	switch {
	case key.Matches(msg, k.Jump):
		lines := m.serverLines(m.views.serverDoc.w)
		c := m.lists[paneServer].cursor
		if c >= len(lines) || lines[c].seq == 0 {
			m.say(true, "enter on a lint finding goes to its traffic line")
			return nil
		}
		m.jumpToSeq(lines[c].seq)
	case key.Matches(msg, k.Open):
		c := m.sess.Conn()
		raw, _ := json.Marshal(map[string]any{
			"serverInfo": map[string]any{"name": c.ServerName, "version": c.ServerVersion, "title": c.Server.Title,
				"websiteUrl": c.Server.WebsiteURL, "icons": orNull(c.Server.Icons)},
			"protocolVersion": c.Protocol, "capabilities": orNull(c.Server.Capabilities), "instructions": c.Server.Instructions,
		})
		m.openRaw("server", raw)
	}
	return nil
}

// jumpToSeq shows traffic with the cursor on the entry seq.
func (m *Model) jumpToSeq(seq uint64) {
	i := m.traffic.indexOf(m.sess.History(), seq)
	if i < 0 {
		m.say(true, "traffic line #%d is evicted or filtered out", seq)
		return
	}
	m.focusPane(paneTraffic)
	m.traffic.follow = false
	m.traffic.list.cursor = i
}
