// Package themes turns colour palettes into the Lip Gloss styles the
// inspector draws with: dark, light and high-contrast palettes, a
// monochrome one for NO_COLOR, and the choice among them (auto follows the
// terminal's background).
//
// A selected row is marked with a background colour, never reverse video
// (reverse video is lost in screenshots and some terminals); without colour
// it is marked with bold and underline, and the ui adds a "▌" gutter.
package themes

import (
	"fmt"
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette is a theme's colours, by role. A nil colour means the terminal's
// default.
type Palette struct {
	Name string
	// Mono is set for the NO_COLOR palette: every colour is nil and
	// emphasis comes from attributes.
	Mono bool

	Fg, Muted, Subtle  color.Color
	Accent             color.Color
	Border, Focus      color.Color
	SelectBg, SelectFg color.Color
	Error, Warn, OK    color.Color
	Info               color.Color
	// Escape colours the visible spelling of escaped server bytes.
	Escape color.Color
	// Out and In colour the two directions of traffic.
	Out, In color.Color
	// Pending highlights questions waiting for a person.
	Pending color.Color
	// ProgressFull and ProgressEmpty are the two parts of a progress bar.
	ProgressFull, ProgressEmpty color.Color
	// JSON token colours.
	JSONKey, JSONString, JSONNumber, JSONLiteral, JSONPunct color.Color
}

// Names of the built-in palettes, as --theme takes them ("auto" picks dark
// or light).
const (
	NameAuto         = "auto"
	NameDark         = "dark"
	NameLight        = "light"
	NameHighContrast = "high-contrast"
	NameMono         = "mono"
)

// Dark is the palette for dark backgrounds.
func Dark() Palette {
	c := lipgloss.Color
	return Palette{
		Name: NameDark,
		Fg:   c("#D8DEE9"), Muted: c("#8A93A6"), Subtle: c("#4C566A"),
		Accent: c("#88C0D0"), Border: c("#4C566A"), Focus: c("#88C0D0"),
		SelectBg: c("#3B4A63"), SelectFg: c("#ECEFF4"),
		Error: c("#EF6B73"), Warn: c("#EBCB8B"), OK: c("#A3BE8C"), Info: c("#81A1C1"),
		Escape: c("#D08770"), Out: c("#B48EAD"), In: c("#8FBCBB"), Pending: c("#EBCB8B"),
		ProgressFull: c("#88C0D0"), ProgressEmpty: c("#3B4252"),
		JSONKey: c("#81A1C1"), JSONString: c("#A3BE8C"), JSONNumber: c("#B48EAD"), JSONLiteral: c("#D08770"), JSONPunct: c("#8A93A6"),
	}
}

// Light is the palette for light backgrounds.
func Light() Palette {
	c := lipgloss.Color
	return Palette{
		Name: NameLight,
		Fg:   c("#2E3440"), Muted: c("#5C6370"), Subtle: c("#B0B7C3"),
		Accent: c("#005F87"), Border: c("#B0B7C3"), Focus: c("#005F87"),
		SelectBg: c("#D6E4F0"), SelectFg: c("#1B1F27"),
		Error: c("#B3261E"), Warn: c("#8A5A00"), OK: c("#2E7D32"), Info: c("#1F5FA8"),
		Escape: c("#A0441B"), Out: c("#7B3FA0"), In: c("#00796B"), Pending: c("#8A5A00"),
		ProgressFull: c("#005F87"), ProgressEmpty: c("#DDE2EA"),
		JSONKey: c("#1F5FA8"), JSONString: c("#2E7D32"), JSONNumber: c("#7B3FA0"), JSONLiteral: c("#A0441B"), JSONPunct: c("#5C6370"),
	}
}

// HighContrast is a palette of pure, saturated colours on black, for low
// vision and bright rooms.
func HighContrast() Palette {
	c := lipgloss.Color
	return Palette{
		Name: NameHighContrast,
		Fg:   c("#FFFFFF"), Muted: c("#E0E0E0"), Subtle: c("#C0C0C0"),
		Accent: c("#00FFFF"), Border: c("#FFFFFF"), Focus: c("#FFFF00"),
		SelectBg: c("#0000C0"), SelectFg: c("#FFFFFF"),
		Error: c("#FF5555"), Warn: c("#FFFF00"), OK: c("#55FF55"), Info: c("#55FFFF"),
		Escape: c("#FF55FF"), Out: c("#FF55FF"), In: c("#55FFFF"), Pending: c("#FFFF00"),
		ProgressFull: c("#FFFFFF"), ProgressEmpty: c("#606060"),
		JSONKey: c("#55FFFF"), JSONString: c("#55FF55"), JSONNumber: c("#FF55FF"), JSONLiteral: c("#FFFF00"), JSONPunct: c("#FFFFFF"),
	}
}

// Mono is the NO_COLOR palette: no colour at all.
func Mono() Palette {
	return Palette{Name: NameMono, Mono: true}
}

// ByName returns a built-in palette; "auto" is not a palette (see Choose).
func ByName(name string) (Palette, error) {
	switch name {
	case NameDark:
		return Dark(), nil
	case NameLight:
		return Light(), nil
	case NameHighContrast:
		return HighContrast(), nil
	case NameMono:
		return Mono(), nil
	}
	return Palette{}, fmt.Errorf("themes: unknown theme %q (want auto, dark, light, high-contrast or mono)", name)
}

// Valid reports whether name is accepted by Choose.
func Valid(name string) bool {
	if name == NameAuto || name == "" {
		return true
	}
	_, err := ByName(name)
	return err == nil
}

// Choose picks the palette for a --theme value: NO_COLOR (noColor) wins over
// everything, "auto" or "" follows the terminal's background (darkBg), and
// an unknown name falls back to auto.
func Choose(name string, darkBg, noColor bool) Palette {
	if noColor {
		return Mono()
	}
	if p, err := ByName(name); err == nil {
		return p
	}
	if darkBg {
		return Dark()
	}
	return Light()
}

// NoColor reports whether the environment asks for no colour: NO_COLOR set
// to anything non-empty (https://no-color.org). getenv is os.Getenv or a
// test's stand-in.
func NoColor(getenv func(string) string) bool {
	return getenv("NO_COLOR") != ""
}
