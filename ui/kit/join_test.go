package kit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// joinPieces are what blocks' lines are made of: styled ASCII, box
// drawing, wide and combining characters, a tab, a carriage return.
var joinPieces = []string{"", "a", "plain", " ", "\x1b[1mbold\x1b[m", "\x1b[38;2;10;20;30m╭─╮\x1b[m", "│", "…", "日本", "e\u0301", "👍🏽", "\t", "\r", "▌"}

// randomBlock is a block of up to six lines of random pieces.
func randomBlock(r *rand.Rand) string {
	lines := make([]string, 1+r.IntN(6))
	for i := range lines {
		var b strings.Builder
		for range r.IntN(5) {
			b.WriteString(joinPieces[r.IntN(len(joinPieces))])
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// JoinColumns and JoinRows answer exactly as the lipgloss joins they stand
// for, on blocks of every shape.
func TestJoinsAsLipgloss(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		blocks := make([]string, 1+r.IntN(3))
		for i := range blocks {
			blocks[i] = randomBlock(r)
		}
		if got, want := JoinColumns(blocks...), lipgloss.JoinHorizontal(lipgloss.Top, blocks...); got != want {
			t.Fatalf("JoinColumns(%q) =\n%q\nlipgloss says\n%q", blocks, got, want)
		}
		if got, want := JoinRows(blocks...), lipgloss.JoinVertical(lipgloss.Left, blocks...); got != want {
			t.Fatalf("JoinRows(%q) =\n%q\nlipgloss says\n%q", blocks, got, want)
		}
	}
}
