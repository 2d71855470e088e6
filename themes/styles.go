package themes

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Styles are the inspector's styles, by what they draw.
type Styles struct {
	Palette Palette

	// Text roles.
	Text, Muted, Subtle, Accent lipgloss.Style
	Error, Warn, OK, Info       lipgloss.Style
	Bold                        lipgloss.Style
	// Escape marks escaped server bytes (see inert.Styled).
	Escape lipgloss.Style

	// Header bar.
	Header, HeaderName, HeaderState lipgloss.Style
	// States colour the connection phase (by model.Phase order: starting,
	// negotiating, ready, exited).
	States [4]lipgloss.Style

	// Panes: the border of a pane, and of the focused one; titles.
	Pane, PaneFocused lipgloss.Style
	Title, TitleFocus lipgloss.Style

	// Rows: a selected row, and the pending-question highlight.
	Selected, Pending lipgloss.Style

	// Traffic directions.
	Out, In lipgloss.Style

	// Overlays (help, editor, viewer).
	Overlay lipgloss.Style

	// Progress bar colours are taken from the palette directly.
	ProgressFull, ProgressEmpty lipgloss.Style

	// JSON tokens.
	JSONKey, JSONString, JSONNumber, JSONLiteral, JSONPunct lipgloss.Style

	// Help is for the bubbles help component (footer and ? overlay).
	Help help.Styles
}

// New builds the styles of a palette.
func New(p Palette) *Styles {
	fg := func(c color.Color) lipgloss.Style {
		s := lipgloss.NewStyle()
		if c != nil {
			s = s.Foreground(c)
		}
		return s
	}
	s := &Styles{Palette: p}
	s.Text, s.Muted, s.Subtle, s.Accent = fg(p.Fg), fg(p.Muted), fg(p.Subtle), fg(p.Accent)
	s.Error, s.Warn, s.OK, s.Info = fg(p.Error).Bold(true), fg(p.Warn), fg(p.OK), fg(p.Info)
	s.Bold = fg(p.Fg).Bold(true)
	s.Escape = fg(p.Escape)
	s.Out, s.In = fg(p.Out), fg(p.In)
	s.Pending = fg(p.Pending).Bold(true)
	s.Header = fg(p.Fg)
	s.HeaderName = fg(p.Accent).Bold(true)
	s.HeaderState = lipgloss.NewStyle().Bold(true)
	s.States = [4]lipgloss.Style{fg(p.Warn), fg(p.Warn), fg(p.OK), fg(p.Error)}
	border := lipgloss.RoundedBorder()
	s.Pane = lipgloss.NewStyle().Border(border)
	s.PaneFocused = lipgloss.NewStyle().Border(lipgloss.ThickBorder())
	if p.Border != nil {
		s.Pane = s.Pane.BorderForeground(p.Border)
	}
	if p.Focus != nil {
		s.PaneFocused = s.PaneFocused.BorderForeground(p.Focus)
	}
	s.Title = fg(p.Muted).Bold(true)
	s.TitleFocus = fg(p.Focus).Bold(true)
	s.Selected = lipgloss.NewStyle()
	if p.Mono {
		s.Selected = s.Selected.Bold(true).Underline(true)
		s.Escape = s.Escape.Underline(true)
	} else {
		s.Selected = s.Selected.Background(p.SelectBg).Foreground(p.SelectFg)
	}
	s.Overlay = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	if p.Focus != nil {
		s.Overlay = s.Overlay.BorderForeground(p.Focus)
	}
	s.ProgressFull, s.ProgressEmpty = fg(p.ProgressFull), fg(p.ProgressEmpty)
	s.JSONKey, s.JSONString, s.JSONNumber = fg(p.JSONKey), fg(p.JSONString), fg(p.JSONNumber)
	s.JSONLiteral, s.JSONPunct = fg(p.JSONLiteral), fg(p.JSONPunct)
	s.Help = help.Styles{
		Ellipsis: fg(p.Subtle), ShortKey: fg(p.Accent), ShortDesc: fg(p.Muted), ShortSeparator: fg(p.Subtle),
		FullKey: fg(p.Accent), FullDesc: fg(p.Muted), FullSeparator: fg(p.Subtle),
	}
	return s
}
