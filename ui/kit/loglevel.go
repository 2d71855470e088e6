package kit

import (
	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/themes"
)

// LevelStyle colours a syslog level of notifications/message: debug muted,
// info and notice in the informative colours, warning as a warning, error
// and above as errors; anything else as plain text.
func LevelStyle(st *themes.Styles, level string) lipgloss.Style {
	switch level {
	case "debug":
		return st.Muted
	case "info":
		return st.Info
	case "notice":
		return st.Accent
	case "warning":
		return st.Warn
	case "error", "critical", "alert", "emergency":
		return st.Error
	}
	return st.Text
}
