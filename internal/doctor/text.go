package doctor

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/inert"
)

// WriteJSON writes the report as JSON (strings escaped for a terminal).
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("doctor: %w", err)
	}
	return inert.WriteJSON(w, b, true)
}

// WriteText writes the report for people. Every string from the server is
// escaped.
func (r *Report) WriteText(w io.Writer) error {
	p := &printer{w: w}
	p.line("mcptui doctor: %s", inert.Line(strings.Join(r.Command, " ")))
	p.line("")
	if r.Resolved != "" {
		p.field("Command", "%s → %s", inert.Line(r.Command[0]), inert.Line(r.Resolved))
	} else {
		p.field("Command", "%s (not resolved)", inert.Line(r.Command[0]))
	}
	var ls []string
	for _, n := range []string{"npx", "uvx", "node"} {
		if path := r.Launchers[n]; path != "" {
			ls = append(ls, n+" "+inert.Line(path))
		} else {
			ls = append(ls, n+" not on PATH")
		}
	}
	p.field("Launchers", "%s", strings.Join(ls, " · "))
	if h := r.Host; h != nil {
		if len(h.Dropped) <= 3 {
			p.field("As", "%s (%s): PATH %s; %d variables of your environment passed, not passed: %s; no shell",
				h.Title, h.Platform, h.PATH, len(h.Passed), orNone(h.Dropped))
		} else {
			p.field("As", "%s (%s): PATH %s; passed from your environment: %s; %d others dropped; no shell",
				h.Title, h.Platform, h.PATH, strings.Join(h.Passed, ", "), len(h.Dropped))
		}
		if h.Config != "" {
			p.line("    config: %s", h.Config)
		}
		if h.Resolved != "" {
			p.line("    it would start: %s", inert.Line(h.Resolved))
		}
		for _, u := range h.Unknown {
			p.line("    not recorded: %s", u)
		}
		if h.Versions != nil {
			p.line("    offers %s with initialize only (no server/discover)", strings.Join(h.Versions, ", "))
		}
		if h.Terminal != "" {
			p.line("    from your terminal's environment: %s", inert.Line(h.Terminal))
		}
		for _, s := range h.Sources {
			p.line("    source: %s", s)
		}
	}
	if r.PID != 0 || r.FirstOutput != 0 || r.ConnectError != "" {
		var ts []string
		if r.PID != 0 {
			ts = append(ts, fmt.Sprintf("pid %d", r.PID))
		}
		ts = append(ts, "first output "+orNever(r.FirstOutput), "first message "+orNever(r.FirstMessage))
		if r.Ready != 0 {
			ts = append(ts, "ready "+r.Ready.String())
		}
		p.field("Timings", "%s", strings.Join(ts, " · "))
		if r.JunkLines == 0 {
			p.field("Stdout", "no stray lines before the first message")
		} else {
			p.field("Stdout", "%d line(s) that are not JSON-RPC before the first message:", r.JunkLines)
			for _, l := range r.StdoutJunk {
				p.line("    %s", inert.Fit(l, 110))
			}
		}
	}
	if n := r.Negotiation; n != nil {
		p.field("Negotiation", "%s in %s (%s)", inert.Line(n.Version), n.Took, inert.Line(n.Reason))
		for _, s := range n.Steps {
			what := s.Kind
			if s.Method != "" {
				what = s.Method
			}
			errText := ""
			if s.Error != "" {
				errText = "  " + inert.Fit(s.Error, 60)
			}
			p.line("    %-26s %8s%s → %s", inert.Line(what), s.Took, errText, inert.Fit(s.Decision, 140))
		}
	}
	if r.ConnectError != "" {
		p.field("Handshake", "failed: %s", inert.Fit(r.ConnectError, 200))
		for _, wl := range r.Wire {
			arrow := "→"
			if wl.Dir == "in" {
				arrow = "←"
			}
			note := ""
			if wl.Note != "" {
				note = "  (" + inert.Line(wl.Note) + ")"
			}
			p.line("    %8s %s %s%s", wl.At, arrow, inert.Fit(wl.Line, 100), note)
		}
	}
	if r.Server != "" || len(r.Capabilities) > 0 {
		p.field("Server", "%s · %s", inert.Line(orDash(r.Server)), inert.Line(strings.Join(r.Capabilities, ", ")))
	}
	if len(r.Lists) > 0 || len(r.ListErrors) > 0 {
		var offers []string
		for _, k := range []string{"tools", "resources", "prompts"} {
			if n, ok := r.Lists[k]; ok {
				offers = append(offers, fmt.Sprintf("%d %s", n, k))
			}
			if _, ok := r.ListErrors[k]; ok {
				offers = append(offers, k+": no usable answer")
			}
		}
		p.field("Offers", "%s", strings.Join(offers, " · "))
	}
	if r.PID != 0 || r.ConnectError != "" || len(r.Stderr) > 0 {
		if len(r.Stderr) == 0 {
			p.field("Stderr", "nothing")
		} else {
			p.field("Stderr", "last %d line(s):", len(r.Stderr))
			for _, l := range r.Stderr {
				p.line("    %s", inert.Fit(l, 110))
			}
		}
	}
	switch {
	case r.Shutdown != "":
		p.field("Exit", "%s", inert.Line(r.Shutdown))
	case r.Exit != "":
		p.field("Exit", "%s", inert.Line(r.Exit))
	}
	p.line("")
	p.line("Diagnosis")
	for _, d := range r.Diagnoses {
		mark := map[Severity]string{OK: "✓", Warning: "!", Error: "✗"}[d.Severity]
		p.line("  %s %s: %s", mark, d.Kind, inert.Line(d.Summary))
		if d.Fix != "" {
			p.line("    fix: %s", inert.Line(d.Fix))
		}
	}
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, a ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format+"\n", a...)
}

func (p *printer) field(name, format string, a ...any) {
	p.line("%-12s %s", name, fmt.Sprintf(format, a...))
}

func orNever(m Millis) string {
	if m == 0 {
		return "never"
	}
	return m.String()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}
