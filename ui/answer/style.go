package answer

import "charm.land/lipgloss/v2"

// lipglossStyle keeps the drawing code's signatures short.
type lipglossStyle = lipgloss.Style
