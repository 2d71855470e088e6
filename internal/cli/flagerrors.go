package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// flagError words an error of the flag package as the user would: the
// flag spelled as it was typed (--bogus, not the package's -bogus), and
// for a flag that does not exist the nearest one accepted, when one is
// close. accepted lists the flags the command takes (nil: every flag fs
// defines).
func flagError(fs *flag.FlagSet, args []string, err error, accepted []string) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		typed := typedFlag(args, name)
		if accepted == nil {
			fs.VisitAll(func(f *flag.Flag) { accepted = append(accepted, f.Name) })
		}
		if near := nearestFlag(name, accepted); near != "" {
			return fmt.Errorf("unknown flag %s (did you mean %s?)", typed, dashed(near))
		}
		return fmt.Errorf("unknown flag %s", typed)
	}
	// The other errors name the flag as "-name" after "flag -", "for -"
	// or ": -": put the user's spelling there.
	for _, prefix := range []string{"for flag -", "for -", "argument: -"} {
		i := strings.Index(msg, prefix)
		if i < 0 {
			continue
		}
		start := i + len(prefix) - 1
		end := start + 1
		for end < len(msg) && msg[end] != ':' && msg[end] != ' ' {
			end++
		}
		name := msg[start+1 : end]
		return fmt.Errorf("%s%s%s", msg[:start], typedFlag(args, name), msg[end:])
	}
	return err
}

// typedFlag is how name was spelled on the command line (-e, --env,
// -timeout), without a value after "="; --name when it is not found.
func typedFlag(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		flagPart, _, _ := strings.Cut(a, "=")
		if strings.HasPrefix(flagPart, "-") && strings.TrimLeft(flagPart, "-") == name {
			return flagPart
		}
	}
	return dashed(name)
}

// dashed is the usual spelling of a flag: -e, --env.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// nearestFlag is the accepted flag closest to name when it is close enough
// to be a slip (two edits, or one for a short name), else "".
func nearestFlag(name string, accepted []string) string {
	best, bestDist := "", 3
	if len(name) <= 3 {
		bestDist = 2
	}
	names := slices.Clone(accepted)
	slices.Sort(names)
	for _, a := range names {
		if len(a) == 1 {
			continue
		}
		if d := editDistance(name, a); d < bestDist {
			best, bestDist = a, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
