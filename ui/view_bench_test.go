package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkFloodView is one screen of the workspace at 160x48 under a
// flood: the scripted session and 5,000 log lines, every pane drawn.
func BenchmarkFloodView(b *testing.B) {
	m, _ := newTest(&testing.T{}, 160, 48)
	m.Update(EventsMsg{Events: floodBatch(5000)})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	b.ReportAllocs()
	for b.Loop() {
		m.View()
	}
}
