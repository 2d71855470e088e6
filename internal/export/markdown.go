package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/record"
)

// InspectorSource is WritePostMortem's source for a post-mortem the
// inspector writes from its own session (the post-mortem key, pane 1):
// its footer says so, and a call with no answer yet is said to have none
// yet rather than none before the session ended.
const InspectorSource = ""

// WritePostMortem writes the Markdown post-mortem of the call x: the
// request, what happened while it was in flight (its progress, the
// server's questions and the answers, log messages, cancellation, the
// server's stderr lines and mcptui's notes), the answer or error, and
// timings; ready to paste into an issue. Everything is redacted.
func WritePostMortem(w io.Writer, s *Session, x *Exchange, source string) error {
	var b strings.Builder
	m := x.Request.Msg
	start, end := x.Start(), x.End(s.End)
	who := "mcptui asked the server"
	if x.FromServer {
		who = "the server asked mcptui"
	}
	fmt.Fprintf(&b, "# `%s` (id %s): %s\n\n", mdCode(m.SpanName()), mdCode(m.IDString), outcomeWords(x))
	fmt.Fprintf(&b, "| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| request | `%s`, %s |\n", mdCode(m.Method), who)
	fmt.Fprintf(&b, "| sent | %s (+%s into the session) |\n", start.UTC().Format("2006-01-02 15:04:05.000 MST"), dur(start.Sub(s.Header.Time)))
	fmt.Fprintf(&b, "| %s | after %s |\n", endWord(x), dur(end.Sub(start)))
	if s.Ready != nil && s.Ready.Server != nil {
		fmt.Fprintf(&b, "| server | %s %s, pid %d |\n", mdCell(s.Ready.Server.Name), mdCell(s.Ready.Server.Version), s.Ready.PID)
		fmt.Fprintf(&b, "| protocol | %s |\n", mdCell(s.Ready.Protocol))
	}
	cmd := strings.Join(append([]string{record.RedactURL(s.Header.Command)}, record.RedactArgs(s.Header.Args, false)...), " ")
	fmt.Fprintf(&b, "| command | `%s` |\n", mdCode(cmd))
	if s.Header.Mcptui != "" {
		fmt.Fprintf(&b, "| mcptui | %s (%s) |\n", mdCell(s.Header.Mcptui), mdCell(s.Header.Mode))
	}
	writeWhichTimer(&b, s, x, source)
	writeFindings(&b, s, x)
	b.WriteString("\n## Request\n\n")
	jsonBlock(&b, x.Request.Raw)
	writeHTTPExchanges(&b, s, x)

	notes, questions, stderr, mine := s.During(x)
	type row struct {
		t    time.Time
		what string
	}
	var rows []row
	rows = append(rows, row{start, "request sent"})
	for _, n := range notes {
		rows = append(rows, row{n.Time, noteWords(n)})
	}
	for _, q := range questions {
		rows = append(rows, row{q.Start(), fmt.Sprintf("%s asks `%s` (id %s)", side(q.FromServer), mdCode(q.Request.Msg.Method), mdCode(q.Request.Msg.IDString))})
		if q.Response != nil {
			rows = append(rows, row{q.Response.Time, fmt.Sprintf("%s answers id %s: %s", side(!q.FromServer), mdCode(q.Request.Msg.IDString), outcomeWords(q))})
		}
	}
	for _, l := range stderr {
		rows = append(rows, row{l.Time, "stderr: `" + strings.ReplaceAll(mdCode(redact(l.Text)), "|", `\|`) + "`"})
	}
	for _, l := range mine {
		rows = append(rows, row{l.Time, "mcptui: " + mdCell(redact(l.Text))})
	}
	if x.Response != nil {
		rows = append(rows, row{x.Response.Time, "answer: " + outcomeWords(x)})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].t.Before(rows[j].t) })
	b.WriteString("\n## While it was in flight\n\n| +ms | what |\n|---:|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %.3f | %s |\n", ms(r.t.Sub(start)), r.what)
	}

	if len(questions) > 0 {
		b.WriteString("\n## The questions and their answers\n")
		for _, q := range questions {
			fmt.Fprintf(&b, "\n### `%s` (id %s), asked by %s\n\n", mdCode(q.Request.Msg.Method), mdCode(q.Request.Msg.IDString), side(q.FromServer))
			jsonBlock(&b, q.Request.Raw)
			if q.Response != nil {
				fmt.Fprintf(&b, "\nAnswered after %s:\n\n", dur(q.Response.Time.Sub(q.Start())))
				jsonBlock(&b, q.Response.Raw)
			} else {
				b.WriteString("\nNo answer.\n")
			}
		}
	}
	var logs []*Message
	for _, n := range notes {
		if n.Msg.Method == protocol.NotificationMessage {
			logs = append(logs, n)
		}
	}
	if len(logs) > 0 {
		b.WriteString("\n## Log messages\n\n```text\n")
		for _, n := range logs {
			fmt.Fprintf(&b, "+%.3f %s\n", ms(n.Time.Sub(start)), fence(logLine(n.Msg.Params)))
		}
		b.WriteString("```\n")
	}
	b.WriteString("\n## The server's stderr while it was in flight\n\n")
	if len(stderr) == 0 {
		b.WriteString("None.\n")
	} else {
		b.WriteString("```text\n")
		for _, l := range stderr {
			fmt.Fprintf(&b, "+%.3f %s\n", ms(l.Time.Sub(start)), fence(inert.Line(redact(l.Text))))
		}
		b.WriteString("```\n")
	}
	if after := s.After(x); len(after) > 0 {
		b.WriteString("\nRead just after its end (the answer, or the cancellation), before anything else went on the wire (stderr is a pipe of its own: the server may have written them while it was in flight):\n\n```text\n")
		for _, l := range after {
			fmt.Fprintf(&b, "+%.3f %s\n", ms(l.Time.Sub(start)), fence(inert.Line(redact(l.Text))))
		}
		b.WriteString("```\n")
	}
	switch {
	case x.Response != nil && x.Response.Msg.Error != nil:
		b.WriteString("\n## Error\n\n")
		jsonBlock(&b, x.Response.Raw)
	case x.Response != nil:
		b.WriteString("\n## Result\n\n")
		jsonBlock(&b, x.Response.Raw)
	case x.Cancel != nil:
		fmt.Fprintf(&b, "\n## No answer\n\n%s cancelled it after %s:\n\n", side(x.Cancel.FromServer), dur(x.Cancel.Time.Sub(start)))
		jsonBlock(&b, x.Cancel.Raw)
	case source == InspectorSource:
		b.WriteString("\n## No answer\n\nNo answer had come when this was written.\n")
	default:
		b.WriteString("\n## No answer\n\nThe session ended before an answer came.\n")
	}
	if s.Exit != "" {
		fmt.Fprintf(&b, "\nThe server process ended: %s.\n", mdCell(s.Exit))
	}
	if source == InspectorSource {
		fmt.Fprintf(&b, "\n---\nWritten by the mcptui inspector (the post-mortem key on request %s in pane 1) from the lines its session still held; secrets redacted. Times are when mcptui read each line.\n",
			mdCode(m.IDString))
	} else {
		fmt.Fprintf(&b, "\n---\nWritten by `mcptui export --format markdown --call %s %s`; secrets redacted. Times are when mcptui read each line.\n",
			mdCode(m.IDString), mdCode(source))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSummary writes the Markdown overview of the session: one row per
// request, and how to get a call's post-mortem.
func WriteSummary(w io.Writer, s *Session, source string) error {
	var b strings.Builder
	cmd := strings.Join(append([]string{record.RedactURL(s.Header.Command)}, record.RedactArgs(s.Header.Args, false)...), " ")
	fmt.Fprintf(&b, "# MCP session: `%s`\n\n", mdCode(cmd))
	if s.Ready != nil && s.Ready.Server != nil {
		fmt.Fprintf(&b, "Server %s %s, protocol %s, %s long.\n\n", mdCell(s.Ready.Server.Name), mdCell(s.Ready.Server.Version), mdCell(s.Ready.Protocol), dur(s.End.Sub(s.Header.Time)))
	}
	b.WriteString("| id | request | by | +ms | took | outcome |\n|---|---|---|---:|---:|---|\n")
	for _, x := range s.Exchanges {
		m := x.Request.Msg
		fmt.Fprintf(&b, "| %s | `%s` | %s | %.3f | %s | %s |\n", mdCell(m.IDString), mdCode(m.SpanName()), side(x.FromServer),
			ms(x.Start().Sub(s.Header.Time)), dur(x.End(s.End).Sub(x.Start())), outcomeWords(x))
	}
	fmt.Fprintf(&b, "\n%d stderr lines, %d notifications. A call's post-mortem: `mcptui export --format markdown --call ID %s`.\n",
		len(s.Stderr), len(s.Notifications), mdCode(source))
	_, err := io.WriteString(w, b.String())
	return err
}

func side(fromServer bool) string {
	if fromServer {
		return "the server"
	}
	return "mcptui"
}

func endWord(x *Exchange) string {
	switch {
	case x.Response != nil:
		return "answered"
	case x.Cancel != nil:
		return "cancelled"
	}
	return "unanswered"
}

func outcomeWords(x *Exchange) string {
	switch x.Outcome() {
	case "error":
		e := x.Response.Msg.Error
		return fmt.Sprintf("error %d %s", e.Code, mdCell(redact(e.Message)))
	case "tool_error":
		return "tool error (isError)"
	case "cancelled":
		return "cancelled: " + mdCell(redact(x.Cancel.Msg.Reason))
	case "unanswered":
		return "no answer"
	}
	return "ok"
}

func noteWords(n *Message) string {
	switch n.Msg.Method {
	case protocol.NotificationProgress:
		var p struct {
			Progress *float64 `json:"progress"`
			Total    *float64 `json:"total"`
			Message  string   `json:"message"`
		}
		_ = json.Unmarshal(n.Msg.Params, &p)
		s := "progress"
		if p.Progress != nil {
			s += fmt.Sprintf(" %g", *p.Progress)
			if p.Total != nil {
				s += fmt.Sprintf("/%g", *p.Total)
			}
		}
		if p.Message != "" {
			s += " " + mdCell(redact(p.Message))
		}
		return s
	case protocol.NotificationCancelled:
		return fmt.Sprintf("%s cancels id %s: %s", side(n.FromServer), mdCode(n.Msg.CancelledID), mdCell(redact(n.Msg.Reason)))
	case protocol.NotificationMessage:
		return "log: " + mdCell(logLine(n.Msg.Params))
	}
	return fmt.Sprintf("%s sends `%s`", side(n.FromServer), mdCode(n.Msg.Method))
}

// logLine is a log message as one line: level, logger, data.
func logLine(params json.RawMessage) string {
	var p struct {
		Level  string          `json:"level"`
		Logger string          `json:"logger"`
		Data   json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(params, &p)
	data := string(p.Data)
	var s string
	if json.Unmarshal(p.Data, &s) == nil {
		data = s
	}
	out := p.Level
	if p.Logger != "" {
		out += " [" + p.Logger + "]"
	}
	return inert.Line(redact(out + " " + data))
}

// jsonBlock writes a message, redacted and indented, in a fence.
func jsonBlock(b *strings.Builder, raw []byte) {
	r := redactedJSON(raw)
	var out bytes.Buffer
	if err := json.Indent(&out, r, "", "  "); err != nil {
		out.Reset()
		out.Write(r)
	}
	b.WriteString("```json\n")
	b.WriteString(fence(out.String()))
	b.WriteString("\n```\n")
}

// fence keeps text from closing its code fence.
func fence(s string) string { return strings.ReplaceAll(s, "```", "`\u200b``") }

// mdCode is text for inside `...`: inert, no backticks.
func mdCode(s string) string { return strings.ReplaceAll(inert.Line(s), "`", "'") }

// mdCell is text for a table cell: inert, pipes escaped.
func mdCell(s string) string { return strings.ReplaceAll(inert.Line(s), "|", `\|`) }

// dur is a duration for people.
func dur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}

// writeHTTPExchanges writes the HTTP exchanges that carried x's request
// (an HTTP session's; a retried POST is one more), with their status,
// timings and headers, redacted.
func writeHTTPExchanges(b *strings.Builder, s *Session, x *Exchange) {
	var hs []*HTTPExchange
	for _, h := range s.HTTPExchanges {
		e := h.Entry
		if e.RPCKind == "request" && !x.FromServer && s.findHTTPRequest(e) == x {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return
	}
	start := x.Start()
	b.WriteString("\n## HTTP exchanges\n\n| +ms | request | status | headers after | body end | headers |\n|---:|---|---|---:|---:|---|\n")
	for _, h := range hs {
		e := h.Entry
		status := fmt.Sprintf("%d", e.HTTPStatus)
		if e.HTTPStatus == 0 {
			status = "none: " + mdCell(redact(e.Error))
		}
		end := ""
		if h.End != nil {
			end = fmt.Sprintf("+%.3f", ms(h.End.Time.Sub(start)))
		}
		var hdr []string
		for _, p := range e.RequestHeaders {
			hdr = append(hdr, "> "+p.Name+": "+record.RedactRecordedHeader(p.Name, p.Value))
		}
		for _, p := range e.ResponseHeaders {
			hdr = append(hdr, "< "+p.Name+": "+record.RedactRecordedHeader(p.Name, p.Value))
		}
		fmt.Fprintf(b, "| %+.3f | `%s %s` | %s | %s | %s | %s |\n", ms(e.Time.Sub(start)), mdCode(e.Method), mdCode(record.RedactURL(e.URL)),
			status, dur(time.Duration(e.DurationMs*float64(time.Millisecond))), end, mdCell(strings.Join(hdr, "; ")))
	}
}
