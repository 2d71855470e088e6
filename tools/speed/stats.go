package main

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// side is which build a run uses.
type side int

const (
	oldSide side = iota
	newSide
	peerSide // another program (-peer), for the cases it can run
)

func (s side) String() string {
	switch s {
	case oldSide:
		return "old"
	case peerSide:
		return "peer"
	}
	return "new"
}

// schedule is the order of a case's runs: old and new interleaved (old,
// new, old, new, …) n times each, so that whatever else the machine does
// falls on both builds alike; only new when the old build lacks the case.
func schedule(n int, hasOld bool) []side {
	return schedulePeer(n, hasOld, false)
}

// schedulePeer is schedule with the peer's run after each new one (old,
// new, peer, old, new, peer, …) when hasPeer.
func schedulePeer(n int, hasOld, hasPeer bool) []side {
	var out []side
	for range n {
		if hasOld {
			out = append(out, oldSide)
		}
		out = append(out, newSide)
		if hasPeer {
			out = append(out, peerSide)
		}
	}
	return out
}

// median of xs (the mean of the middle two for an even count); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// ratio is new/old (above 1: the new build costs more); 0 when there is
// no old figure to divide by.
func ratio(old, new float64) float64 {
	if old <= 0 {
		return 0
	}
	return new / old
}

// benchLine is one result line of `go test -bench`.
type benchLine struct {
	Name        string  `json:"name"`
	N           int64   `json:"n"`
	NsPerOp     float64 `json:"nsPerOp"`
	BytesPerOp  float64 `json:"bytesPerOp,omitempty"`
	AllocsPerOp float64 `json:"allocsPerOp,omitempty"`
}

// parseBench finds the result line of the benchmark named name (as go
// test prints it, "BenchmarkX/sub", without the "-GOMAXPROCS" suffix) in
// the output of a test binary run with -test.bench.
func parseBench(out, name string) (benchLine, error) {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		full := f[0]
		if i := strings.LastIndexByte(full, '-'); i > 0 {
			if _, err := strconv.Atoi(full[i+1:]); err == nil {
				full = full[:i]
			}
		}
		if full != name {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return benchLine{}, fmt.Errorf("benchmark %s: iterations %q: %w", name, f[1], err)
		}
		b := benchLine{Name: full, N: n}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return benchLine{}, fmt.Errorf("benchmark %s: value %q: %w", name, f[i], err)
			}
			switch f[i+1] {
			case "ns/op":
				b.NsPerOp = v
			case "B/op":
				b.BytesPerOp = v
			case "allocs/op":
				b.AllocsPerOp = v
			}
		}
		if b.NsPerOp == 0 {
			return benchLine{}, fmt.Errorf("benchmark %s: no ns/op in %q", name, sc.Text())
		}
		return b, nil
	}
	return benchLine{}, fmt.Errorf("benchmark %s: no result line in the output", name)
}

// human formats a quantity of a unit for the table.
func human(v float64, unit string) string {
	switch unit {
	case "s":
		d := time.Duration(v * float64(time.Second))
		switch {
		case d >= time.Second:
			return fmt.Sprintf("%.2f s", d.Seconds())
		case d >= time.Millisecond:
			return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
		default:
			return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
		}
	case "B":
		switch {
		case v >= 1<<20:
			return fmt.Sprintf("%.1f MiB", v/(1<<20))
		case v >= 1<<10:
			return fmt.Sprintf("%.1f KiB", v/(1<<10))
		default:
			return fmt.Sprintf("%.0f B", v)
		}
	case "%":
		return fmt.Sprintf("%.1f%%", v)
	case "cores":
		return fmt.Sprintf("%.2f cores", v)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// fmtRatio is a ratio for the table: "new" when there is nothing to
// compare with.
func fmtRatio(r float64) string {
	switch {
	case r == 0:
		return "new"
	case r < 0.095:
		return fmt.Sprintf("%.3fx", r)
	}
	return fmt.Sprintf("%.2fx", r)
}
