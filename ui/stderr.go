package ui

import "github.com/mcptui/mcptui/ui/kit"

// drawStderr draws the visible stderr lines, following the newest unless
// the person scrolled up.
func (m *Model) drawStderr(w, h int) []string {
	st := m.styles
	log := m.sess.StderrLog()
	n := log.Len()
	l := &m.lists[paneStderr]
	if m.stderrFollow {
		l.cursor = max(n-1, 0)
	}
	l.clamp(n)
	l.show(h)
	if n == 0 {
		return []string{kit.Row(m.styles, w, false, kit.Own("  nothing on stderr", w, st.Muted))}
	}
	var out []string
	i := l.offset
	defer func() { m.scrolls[paneStderr] = kit.Scroll{Above: l.offset, Below: n - i} }()
	for ; i < n && len(out) < h; i++ {
		ln := log.At(i)
		sel := i == l.cursor && !m.stderrFollow && m.focus == paneStderr
		if ln.Boundary {
			out = append(out, kit.Row(m.styles, w, sel, kit.Own("──── "+fmtClock(ln.Time)+" · restarted "+repeat("─", w), w, st.Warn)))
			continue
		}
		out = append(out, kit.Row(m.styles, w, sel, kit.Own(" "+fmtClock(ln.Time)+" ", 14, st.Muted), kit.Srv(ln.Text, max(w-14, 0), st.Text)))
	}
	return out
}
