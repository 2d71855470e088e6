package kit

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// DetectedColors gives a Bubble Tea program the color profile lipgloss
// detected when its package was initialized, for the same output
// (os.Stdout) and environment that Program.Run would detect it for again:
// inside tmux, a second `tmux info` run and waited for before the first
// screen. Every program of mcptui's on the terminal takes it.
func DetectedColors() tea.ProgramOption {
	return tea.WithColorProfile(lipgloss.Writer.Profile)
}
