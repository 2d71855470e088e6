package export

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/rpccall"
)

// writeWhichTimer writes what ended x: which timer fired (the per-request
// timeout, the maximum total timeout that caps its restarts by progress,
// a caller's deadline such as mcptui check's call timeout), with the
// durations they were set to and when it fired from the request's start,
// or what else did (an answer, an error from the server, a cancellation,
// the transport closing).
func writeWhichTimer(b *strings.Builder, s *Session, x *Exchange, source string) {
	b.WriteString("\n## Which timer fired\n\n")
	start := x.Start()
	at := func(t time.Time) string { return "+" + dur(t.Sub(start)) }
	switch {
	case x.Response != nil && x.Response.Msg.Error != nil:
		fmt.Fprintf(b, "None: %s answered with an error after %s (a %s error: %s).\n",
			side(!x.FromServer), dur(x.Response.Time.Sub(start)), sideAdj(!x.FromServer), outcomeWords(x))
	case x.Response != nil:
		fmt.Fprintf(b, "None: %s answered after %s (%s).\n", side(!x.FromServer), dur(x.Response.Time.Sub(start)), outcomeWords(x))
	case x.GaveUp != nil:
		// When it fired, by the call's own clock from its start: the
		// request's line is read a moment after its timer started, so the
		// cancellation's line can be under the timeout from it (+998ms
		// for a 1s timeout, seen under -race).
		fired := at(x.Cancel.Time)
		if x.GaveUp.AfterMs > 0 {
			fired = "+" + dur(fromMs(x.GaveUp.AfterMs))
		}
		b.WriteString(gaveUpWords(x.GaveUp, fired))
		writeTimers(b, x.GaveUp.Timeout, x.GaveUp.ResetTimeoutOnProgress, x.GaveUp.MaxTotalTimeout, x.GaveUp.Extended, "this request's timers")
	case x.Cancel != nil && x.Cancel.FromServer != x.FromServer:
		fmt.Fprintf(b, "None: %s cancelled it, its asker, at %s (reason %q).\n", side(x.Cancel.FromServer), at(x.Cancel.Time), mdCell(redact(x.Cancel.Msg.Reason)))
	case x.Cancel != nil && x.Cancel.Msg.Reason == rpccall.ReasonTimedOut:
		fmt.Fprintf(b, "A timer fired: %s cancelled it at %s with the reason %q. The recording does not say which timer (it was made before mcptui recorded it); the session's settings:\n",
			side(x.Cancel.FromServer), at(x.Cancel.Time), rpccall.ReasonTimedOut)
		st := s.Header.Settings
		writeTimers(b, st.Timeout, st.ResetTimeoutOnProgress, st.MaxTotalTimeout, "", "")
	case x.Cancel != nil:
		fmt.Fprintf(b, "None that this recording names: %s cancelled it at %s (reason %q).\n", side(x.Cancel.FromServer), at(x.Cancel.Time), mdCell(redact(x.Cancel.Msg.Reason)))
	default:
		for _, t := range s.Exits {
			if !t.Before(start) {
				status := ""
				if s.Exit != "" {
					status = " (" + mdCell(s.Exit) + ")"
				}
				fmt.Fprintf(b, "None: the transport closed first: the server process ended%s at %s, before an answer came.\n", status, at(t))
				return
			}
		}
		if source == InspectorSource {
			fmt.Fprintf(b, "None yet: no answer had come when this was written, %s after it was sent.\n", dur(s.End.Sub(start)))
			return
		}
		fmt.Fprintf(b, "None: the recording ends at %s, before an answer came.\n", at(s.End))
	}
}

// gaveUp words say why mcptui gave up on a request, fired at at.
func gaveUpWords(g *record.GaveUp, at string) string {
	if fired, ok := timerWords(g, at); ok {
		return fired + " mcptui then cancelled the request.\n"
	}
	switch g.Why {
	case rpccall.WhyCancelled:
		return fmt.Sprintf("None: it was cancelled at %s%s, %s.\n", at, progressWords(g), mdCell(cause(g)))
	case rpccall.WhyProgress:
		return fmt.Sprintf("None: mcptui gave up at %s%s: %s.\n", at, progressWords(g), mdCell(cause(g)))
	}
	return fmt.Sprintf("mcptui gave up at %s (%s): %s.\n", at, mdCell(g.Why), mdCell(cause(g)))
}

// timerWords say which timer fired on a request mcptui gave up on, set to
// what, and when (at), in one sentence; ok is false when what stopped the
// wait was no timer (the cancel key, a failed progress callback).
func timerWords(g *record.GaveUp, at string) (words string, ok bool) {
	progress := progressWords(g)
	switch g.Why {
	case rpccall.WhyTimeout:
		if g.ResetTimeoutOnProgress && g.Progress > 0 {
			return fmt.Sprintf("The per-request timeout: %s, restarted by each progress notification%s; it fired at %s, %s after the last one.",
				g.Timeout, progress, at, g.Timeout), true
		}
		return fmt.Sprintf("The per-request timeout: %s, fired at %s%s.", g.Timeout, at, progress), true
	case rpccall.WhyMaxTotal:
		return fmt.Sprintf("The maximum total timeout (--max-total-timeout): %s, the cap on how far progress may restart the per-request timeout of %s%s; it fired at %s.",
			g.MaxTotalTimeout, g.Timeout, progress, at), true
	case rpccall.WhyDeadline:
		return fmt.Sprintf("The caller's own deadline, not a timer of the request's: %s; it passed at %s%s.", mdCell(cause(g)), at, progress), true
	}
	return "", false
}

func progressWords(g *record.GaveUp) string {
	if g.Progress > 0 {
		return fmt.Sprintf(" (%d progress notification(s), the last at +%s)", g.Progress, dur(fromMs(g.LastProgressMs)))
	}
	return ""
}

// TimerFired is what the post-mortem's "Which timer fired" says of a call
// mcptui gave up on because a timer fired (g, the call's GaveUp): which
// timer, set to what, and when from the call's start ("The per-request
// timeout: 1s, fired at +1.000s."). Pane 1 draws it under the call's row,
// so that the two say it in the same words. ok is false for a g that is
// nil or says no timer stopped the wait (the cancel key).
func TimerFired(g *rpccall.GaveUp) (words string, ok bool) {
	if g == nil {
		return "", false
	}
	r := record.GaveUpOf(g)
	if r == nil {
		return "", false
	}
	return timerWords(r, "+"+dur(fromMs(r.AfterMs)))
}

func cause(g *record.GaveUp) string {
	if g.Cause == "" {
		return "no cause given"
	}
	return redact(g.Cause)
}

// writeTimers writes the timers a request was set with (what the recording
// says: "" is not said).
func writeTimers(b *strings.Builder, timeout string, reset bool, maxTotal, extended, what string) {
	if what != "" {
		fmt.Fprintf(b, "\n%s:\n", strings.ToUpper(what[:1])+what[1:])
	}
	b.WriteString("\n| timer | set to |\n|---|---|\n")
	if timeout == "" || timeout == "0s" {
		timeout = "none"
	}
	fmt.Fprintf(b, "| per-request timeout (`--timeout`) | %s |\n", mdCell(timeout))
	fmt.Fprintf(b, "| restarted by progress (`--reset-timeout-on-progress`) | %s |\n", yesNo(reset))
	if reset && maxTotal != "" {
		fmt.Fprintf(b, "| maximum total timeout (`--max-total-timeout`) | %s |\n", mdCell(maxTotal))
	}
	if extended != "" {
		fmt.Fprintf(b, "| extended by the person | %s |\n", mdCell(extended))
	}
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func sideAdj(fromServer bool) string {
	if fromServer {
		return "server-side"
	}
	return "client-side"
}

func fromMs(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

// writeFindings writes the live lint's findings on x's lines: the rule,
// its level, what was seen, the rule's sentence and the section of the
// specification it cites; or that there are none.
func writeFindings(b *strings.Builder, s *Session, x *Exchange) {
	b.WriteString("\n## Lint findings on its lines\n\n")
	if !s.Linted {
		b.WriteString("Not judged.\n")
		return
	}
	fs := s.FindingsOn(x)
	if len(fs) == 0 {
		b.WriteString("None: its lines broke no rule of the specification that the live lint judges from traffic (the rules of `mcptui check` marked live).\n")
		return
	}
	start := x.Start()
	for _, f := range fs {
		r, ok := rules.Get(f.Rule)
		level := "?"
		if ok {
			level = r.Level.String()
		}
		fmt.Fprintf(b, "- **`%s`** (%s) on %s at %+.3f ms: %s\n", mdCode(f.Rule), level, lineWords(f, x), ms(f.Time.Sub(start)), mdCell(redact(f.Message)))
		if !ok {
			continue
		}
		era := f.Era
		if era == "" && s.Ready != nil {
			era = s.Ready.Protocol
		}
		cite := r.Section
		if era != "" && r.Applies(era) {
			cite = fmt.Sprintf("[%s](%s) (%s)", r.SectionIn(era), r.URL(era), era)
		}
		fmt.Fprintf(b, "  - the rule: %s — %s\n", mdCell(r.Text), cite)
	}
}

// lineWords names the line a finding is on, as part of x's story.
func lineWords(f Finding, x *Exchange) string {
	switch f.Msg {
	case nil:
		return "a line mcptui discarded"
	case x.Request:
		return "the request"
	case x.Response:
		return "the answer"
	case x.Cancel:
		return "the cancellation"
	}
	m := f.Msg.Msg
	if m.Method != "" {
		return fmt.Sprintf("%s's `%s`", side(f.Msg.FromServer), mdCode(m.Method))
	}
	return fmt.Sprintf("%s's answer to id %s", side(f.Msg.FromServer), mdCode(m.IDString))
}
