package kit

import (
	"math"
	"strconv"
	"strings"
)

// Number is how a JSON number is drawn: as people write it, never in
// exponent form while it has 21 digits or fewer before the point and is
// not tiny (67108864, not 6.7108864e+07; 9007199254740991, not
// 9.007199254740991e+15; 0.25; 1e-07 stays). The one number formatter of
// the UI.
func Number(f float64) string {
	if a := math.Abs(f); f == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// NumberText redraws a JSON number literal (as a server wrote it) the way
// Number does, keeping its digits exact when it has no exponent or
// fraction to rewrite; anything that is not a number comes back as it is.
func NumberText(s string) string {
	if !strings.ContainsAny(s, "eE") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return s
	}
	return Number(f)
}
