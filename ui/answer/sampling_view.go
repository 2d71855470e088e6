package answer

import (
	"github.com/mcptui/mcptui/keymap"
	"strings"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/ui/kit"
)

// View implements Editor.
func (s *Sampling) View(w, h int) []string {
	st := s.opts.Styles
	foot := kit.Row(st, w, false, kit.Own(" "+keymap.HintFit(w-1, s.Keys()...), w, st.Subtle))
	switch {
	case s.err != "":
		foot = kit.Row(st, w, false, kit.Txt(" ✗ ", st.Error), kit.SrvFree(s.err, w-3, st.Error))
	case s.asking:
		foot = kit.Row(st, w, false, kit.Own(" Reject: "+keymap.Hint(s.Keys()...), w, st.Warn))
	}
	if s.raw {
		s.rawTA.SetWidth(w)
		s.rawTA.SetHeight(max(h-2, 1))
		out := []string{kit.Row(st, w, false, kit.Own(" The reply as raw JSON (checked before it is sent):", w, st.Muted))}
		for _, l := range strings.Split(s.rawTA.View(), "\n") {
			out = append(out, kit.Fit(l, w))
		}
		return append(kit.Pad(out, w, h-1), foot)
	}
	settings := s.settingsView(w)
	replyH := max(h/3, len(settings)+4)
	if s.toolUse {
		replyH = max(h/2, len(settings)+8)
	}
	convH := max(h-replyH-2, 1)
	conv, maxScroll := s.conv.window(&s.req, st, w, s.scroll, convH)
	s.scroll = max(min(s.scroll, maxScroll), 0)
	title := " The request"
	if s.region == regionConversation {
		title += " (" + keymap.Hint(keymap.Described(s.opts.keys().Answer.ScrollDown, "scroll")) + ")"
	}
	out := []string{kit.Row(st, w, false, kit.Own(title, w, s.regionStyle(regionConversation)))}
	out = append(out, kit.Pad(conv, w, convH)...)
	out = append(out, kit.Row(st, w, false, kit.Own(" Your reply", w, s.regionStyle(regionReply))))
	out = append(out, settings...)
	bodyH := max(h-len(out)-1, 1)
	if s.toolUse {
		out = append(out, s.toolForm().View(w, bodyH)...)
	} else {
		s.text.SetWidth(w)
		s.text.SetHeight(bodyH)
		for _, l := range strings.Split(s.text.View(), "\n") {
			out = append(out, kit.Fit(l, w))
		}
	}
	return append(kit.Pad(out, w, h-1), foot)
}

// regionStyle marks the focused region's heading.
func (s *Sampling) regionStyle(r int) lipglossStyle {
	if s.region == r {
		return s.opts.Styles.TitleFocus
	}
	return s.opts.Styles.Muted
}

// settingsView draws the model name, stop reason and (with tools) the
// kind of reply and the tool.
func (s *Sampling) settingsView(w int) []string {
	st := s.opts.Styles
	var out []string
	focused := func(i int) bool { return s.region == regionSettings && s.setting == i }
	gutter := func(i int) kit.Seg {
		if focused(i) {
			return kit.Txt(" ▶ ", st.Accent)
		}
		return kit.Txt("   ", st.Text)
	}
	choice := func(v string) kit.Seg {
		return kit.Seg{S: st.Accent.Render("‹ ") + st.Text.Render(inert.Fit(v, 40)) + st.Accent.Render(" ›"), St: st.Text}
	}
	out = append(out, kit.Row(st, w, false, gutter(settingModel), kit.Own("model", 14, st.Muted),
		kit.Seg{S: s.modelName.View(min(w-17, 40), focused(settingModel), st.Text, st.Selected, st.Muted, "model name"), St: st.Text}))
	out = append(out, kit.Row(st, w, false, gutter(settingStop), kit.Own("stop reason", 14, st.Muted), choice(stopReasons[s.stop])))
	if len(s.req.Tools) > 0 {
		kind := "text"
		if s.toolUse {
			kind = "tool use"
		}
		out = append(out, kit.Row(st, w, false, gutter(settingKind), kit.Own("reply with", 14, st.Muted), choice(kind)))
		if s.toolUse {
			t := s.req.Tools[s.tool]
			out = append(out, kit.Row(st, w, false, gutter(settingTool), kit.Own("tool", 14, st.Muted), choice(t.Name),
				kit.Txt("  ", st.Text), kit.SrvFree(t.Description, max(w-60, 1), st.Muted)))
		}
	}
	return out
}
