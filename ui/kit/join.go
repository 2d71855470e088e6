package kit

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/internal/inert"
)

// The screen's panes are joined every frame. lipgloss's joins measure
// every line with grapheme segmentation; these answer exactly as they do
// (lipgloss.JoinHorizontal at lipgloss.Top, lipgloss.JoinVertical at
// lipgloss.Left) but measure with inert.Cells, which counts a pane's
// lines — styled ASCII and box drawing — at once.

// JoinColumns sets blocks side by side, top-aligned: a shorter block is
// continued with empty lines, and every line is padded to its block's
// widest.
func JoinColumns(blocks ...string) string {
	if len(blocks) < 2 || needsLipgloss(blocks) {
		return lipgloss.JoinHorizontal(lipgloss.Top, blocks...)
	}
	lines := make([][]string, len(blocks))
	widths := make([][]int, len(blocks))
	widest := make([]int, len(blocks))
	height, size := 0, 0
	for i, b := range blocks {
		lines[i], widths[i], widest[i] = measure(b)
		height = max(height, len(lines[i]))
		size += len(b)
	}
	var out strings.Builder
	out.Grow(size + height*len(blocks))
	for row := range height {
		for i := range blocks {
			line, w := "", 0
			if row < len(lines[i]) {
				line, w = lines[i][row], widths[i][row]
			}
			out.WriteString(line)
			writeSpaces(&out, widest[i]-w)
		}
		if row < height-1 {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// JoinRows stacks blocks, left-aligned: every line is padded to the
// widest line of them all.
func JoinRows(blocks ...string) string {
	if len(blocks) < 2 || needsLipgloss(blocks) {
		return lipgloss.JoinVertical(lipgloss.Left, blocks...)
	}
	lines := make([][]string, len(blocks))
	widths := make([][]int, len(blocks))
	widest, size, count := 0, 0, 0
	for i, b := range blocks {
		var w int
		lines[i], widths[i], w = measure(b)
		widest = max(widest, w)
		size += len(b)
		count += len(lines[i])
	}
	var out strings.Builder
	out.Grow(size + count)
	for i := range blocks {
		for j, line := range lines[i] {
			out.WriteString(line)
			writeSpaces(&out, widest-widths[i][j])
			if i < len(blocks)-1 || j < len(lines[i])-1 {
				out.WriteByte('\n')
			}
		}
	}
	return out.String()
}

// needsLipgloss reports whether a block holds what lipgloss rewrites
// before measuring (tabs, carriage returns): those are left to it.
func needsLipgloss(blocks []string) bool {
	for _, b := range blocks {
		if strings.ContainsAny(b, "\t\r") {
			return true
		}
	}
	return false
}

// measure splits a block into lines and measures each, and the widest.
func measure(block string) (lines []string, widths []int, widest int) {
	lines = strings.Split(block, "\n")
	widths = make([]int, len(lines))
	for i, l := range lines {
		widths[i] = inert.Cells(l)
		widest = max(widest, widths[i])
	}
	return lines, widths, widest
}

// writeSpaces writes n spaces (none when n <= 0).
func writeSpaces(b *strings.Builder, n int) {
	const spaces = "                                                                "
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}
