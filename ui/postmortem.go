package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/export"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// postMortem writes the redacted Markdown post-mortem of call c (the
// request selected in pane 1) to a file in the temporary directory, says
// its path and copies it to the clipboard.
func (m *Model) postMortem(c *model.Call) tea.Cmd {
	mode := "inspect"
	if m.opts.ReadOnly {
		mode = "watch"
	}
	path, err := export.WritePostMortemFile("", m.sess, c, "", mode)
	if err != nil {
		m.say(true, "no post-mortem: %s", inert.Line(err.Error()))
		return nil
	}
	cmd, status, _ := kit.Copy(path, "path", "")
	m.say(false, "post-mortem of request %s written to %s; %s", inert.Fit(string(c.ID), 16), inert.Line(path), status)
	return cmd
}
