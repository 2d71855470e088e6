package answer

import (
	"encoding/json"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/urlpolicy"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// URL answers a URL elicitation. The URL is never opened unless the person
// asks and then confirms.
type URL struct {
	q       *model.Question
	opts    Options
	message string
	id      string
	check   URLCheck
	confirm bool
	note    string
	noteErr bool
	outcome *Outcome
}

// openedMsg reports the system opener's start.
type openedMsg struct {
	url string
	err error
}

// NewURL opens a URL elicitation.
func NewURL(q *model.Question, opts Options) *URL {
	var p struct {
		Message       string `json:"message"`
		URL           string `json:"url"`
		ElicitationID string `json:"elicitationId"`
	}
	_ = json.Unmarshal(q.Params, &p)
	return &URL{q: q, opts: opts, message: p.Message, id: p.ElicitationID, check: CheckURL(p.URL, p.Message)}
}

// Check is what was found about the URL.
func (u *URL) Check() URLCheck { return u.check }

// Title implements Editor.
func (u *URL) Title() string {
	return "Elicitation " + inert.Fit(questionID(u.q), 24) + " — the server asks you to open a page"
}

// Done implements Editor.
func (u *URL) Done() (Outcome, bool) {
	if u.outcome == nil {
		return Outcome{}, false
	}
	return *u.outcome, true
}

// Keys implements Editor.
func (u *URL) Keys() []key.Binding {
	a := u.opts.keys().Answer
	if u.confirm {
		return []key.Binding{keymap.Described(a.Confirm, "open it"), keymap.Described(a.Close, "do not (any other key too)")}
	}
	return []key.Binding{a.OpenURL, a.CopyURL, a.Accept, a.Decline, a.Cancel, a.Close}
}

// openable says why the URL may not be handed to the system opener, or
// nil: mcptui's one URL-opening policy (internal/urlpolicy), the one the
// OAuth flow's browser follows too.
func (u *URL) openable() error {
	_, err := urlpolicy.Openable(u.check.URL)
	return err
}

// Update implements Editor.
func (u *URL) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case openedMsg:
		if msg.url != u.check.URL {
			return nil
		}
		if msg.err != nil {
			u.note, u.noteErr = "could not open it: "+msg.err.Error(), true
		} else {
			u.note, u.noteErr = "opened in your browser; accept once you are done there", false
		}
		return nil
	case tea.KeyPressMsg:
		a := u.opts.keys().Answer
		if u.confirm {
			u.confirm = false
			if key.Matches(msg, a.Confirm) {
				url, open := u.check.URL, u.opts.Open
				u.note, u.noteErr = "opening…", false
				return func() tea.Msg { return openedMsg{url: url, err: open(url)} }
			}
			u.note, u.noteErr = "not opened", false
			return nil
		}
		switch {
		case key.Matches(msg, a.OpenURL):
			if err := u.openable(); err != nil {
				u.note, u.noteErr = "not opened: "+err.Error(), true
				return nil
			}
			u.confirm = true
		case key.Matches(msg, a.CopyURL):
			u.note, u.noteErr = "copied the URL to the clipboard", false
			return tea.SetClipboard(u.check.URL)
		case key.Matches(msg, a.Accept):
			u.outcome = &Outcome{Answer: model.ElicitAnswer("accept", nil)}
		case key.Matches(msg, a.Decline):
			u.outcome = &Outcome{Answer: model.ElicitAnswer("decline", nil)}
		case key.Matches(msg, a.Cancel):
			u.outcome = &Outcome{Answer: model.ElicitAnswer("cancel", nil)}
		case key.Matches(msg, a.Close):
			u.outcome = &Outcome{Closed: true}
		}
	}
	return nil
}

// View implements Editor.
func (u *URL) View(w, h int) []string {
	st := u.opts.Styles
	c := u.check
	out := []string{kit.Row(st, w, false, kit.Own(" The server asks you to open a page:", w, st.Muted))}
	msg, _ := kit.Wrap(u.message, max(w-4, 1), 5)
	for _, l := range msg {
		out = append(out, kit.Row(st, w, false, kit.Txt("   ", st.Text), kit.Seg{S: l, St: st.Text}))
	}
	out = append(out, kit.Blank(w))
	domain := c.Domain
	if domain == "" {
		domain = "(no host)"
	}
	dst := st.Bold.Foreground(st.OK.GetForeground())
	if len(c.Warnings) > 0 {
		dst = st.Bold.Foreground(st.Warn.GetForeground())
	}
	out = append(out,
		kit.Row(st, w, false, kit.Own("   site   ", 10, st.Muted), kit.SrvFree(domain, w-10, dst.Underline(true))))
	if c.Unicode != "" && c.Unicode != domain {
		out = append(out, kit.Row(st, w, false, kit.Own("   host   ", 10, st.Muted), kit.SrvFree(c.Unicode, w-10, st.Text)))
	}
	link, _ := kit.Wrap(c.URL, max(w-10, 1), 3)
	for i, l := range link {
		label := "   link   "
		if i > 0 {
			label = ""
		}
		out = append(out, kit.Row(st, w, false, kit.Own(label, 10, st.Muted), kit.Seg{S: l, St: st.Info}))
	}
	if u.id != "" {
		out = append(out, kit.Row(st, w, false, kit.Own("   id     ", 10, st.Muted), kit.SrvFree(u.id, w-10, st.Muted)))
	}
	out = append(out, kit.Blank(w))
	if len(c.Warnings) == 0 {
		out = append(out, kit.Row(st, w, false, kit.Own("   ✓ https, a plain ASCII host, nothing hidden before it; still, open it only if you trust "+inert.Line(domain), w, st.OK)))
	}
	for _, warn := range c.Warnings {
		for i, l := range kit.WrapSafe(inert.Line(warn), max(w-7, 1)) {
			mark := "   ⚠ "
			if i > 0 {
				mark = "     "
			}
			out = append(out, kit.Row(st, w, false, kit.Txt(mark, st.Warn), kit.Seg{S: l, St: st.Warn}))
		}
	}
	out = append(out, kit.Blank(w),
		kit.Row(st, w, false, kit.Own("   mcptui never opens it by itself.", w, st.Muted)))
	if u.confirm {
		out = append(out, kit.Row(st, w, false, kit.Txt("   Open ", st.Bold), kit.SrvFree(c.URL, w-30, st.Info),
			kit.Txt(" in your browser? y/n", st.Bold)))
	}
	if u.note != "" {
		nst := st.Accent
		if u.noteErr {
			nst = st.Error
		}
		out = append(out, kit.Row(st, w, false, kit.Txt("   ", nst), kit.SrvFree(u.note, w-3, nst)))
	}
	out = kit.Pad(out, w, h-1)
	return append(out, kit.Row(st, w, false, kit.Own(" "+keymap.HintFit(w-1, u.Keys()...), w, st.Subtle)))
}
