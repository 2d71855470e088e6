package drift

import "strings"

// maxWordCells bounds the word diff's table; longer texts are shown whole,
// before and after.
const maxWordCells = 4 << 20

// WordDiff is a word-level diff of a and b in git's --word-diff form:
// unchanged words as they are, removed ones in [-…-], added ones in {+…+}.
func WordDiff(a, b string) string {
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa)*len(wb) > maxWordCells {
		return "[-" + a + "-] {+" + b + "+}"
	}
	// lcs[i][j] is the longest common subsequence of wa[i:] and wb[j:].
	lcs := make([][]int, len(wa)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(wb)+1)
	}
	for i := len(wa) - 1; i >= 0; i-- {
		for j := len(wb) - 1; j >= 0; j-- {
			if wa[i] == wb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	var del, ins []string
	flush := func() {
		if len(del) > 0 {
			out = append(out, "[-"+strings.Join(del, " ")+"-]")
		}
		if len(ins) > 0 {
			out = append(out, "{+"+strings.Join(ins, " ")+"+}")
		}
		del, ins = nil, nil
	}
	i, j := 0, 0
	for i < len(wa) || j < len(wb) {
		switch {
		case i < len(wa) && j < len(wb) && wa[i] == wb[j]:
			flush()
			out = append(out, wa[i])
			i, j = i+1, j+1
		case j < len(wb) && (i == len(wa) || lcs[i][j+1] >= lcs[i+1][j]):
			ins = append(ins, wb[j])
			j++
		default:
			del = append(del, wa[i])
			i++
		}
	}
	flush()
	return strings.Join(out, " ")
}
