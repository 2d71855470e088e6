package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
)

// The composer with a tool's arguments form, and with its params as raw
// JSON, at 80x24 and 160x48, drawn by the real program.
func TestComposerFormScreen(t *testing.T) {
	keys := []tea.Msg{kp("n"), ctrl('u')}
	for _, r := range "tools/c" {
		keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	keys = append(keys, kp("enter"), kp("enter"))
	for _, r := range "Oslo" {
		keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	keys = append(keys, kp("tab"))
	cases := []screenCase{
		{name: "composer_form", events: uitest.Session(), opts: Options{Catalog: composerServer{}}, msgs: keys, runCmd: map[int]bool{0: true}},
		{name: "composer_raw", events: uitest.Session(), opts: Options{Catalog: composerServer{}}, msgs: append(keys[:len(keys):len(keys)], ctrl('r')), runCmd: map[int]bool{0: true}},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(c.name+"_"+sizeName(size), func(t *testing.T) {
				styled, plain := runScreen(t, c, size[0], size[1])
				t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
				t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
			})
		}
	}
}
