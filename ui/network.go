package ui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// The network view, pane 5 of an HTTP server (a stdio server's pane 5 is
// its stderr, stderr.go): one row per HTTP exchange — status, method,
// time, size, content type and the JSON-RPC messages it carried, an SSE
// stream's events and whether it is still open — following the newest
// unless the person moved up. enter opens the exchange (URL, timing,
// headers with secrets redacted, what it carried) in the viewer; i and o
// open the request's and the response's message, t goes to its traffic
// line; v shows the transport's log instead (every exchange on one line,
// OAuth steps, warnings: what mcp writes where a process's stderr would
// be).

// netView is the network view's state.
type netView struct {
	list listState
	// scrolled says the person moved off the newest exchange (the view
	// follows it otherwise).
	scrolled bool
	// log shows the transport's log in place of the exchanges.
	log bool
	// dropped is the book's Dropped when the view was last drawn, to keep
	// the cursor on its exchange as old ones are forgotten.
	dropped int
}

// httpServer reports whether the server is an HTTP one: pane 5 is then
// the network view.
func (m *Model) httpServer() bool {
	return m.sess.Conn().URL() != "" || m.sess.Network().Total() > 0
}

// networkShown reports whether pane 5 shows the exchanges (not stderr or
// the transport's log).
func (m *Model) networkShown() bool { return m.httpServer() && !m.net.log }

// networkTitle is pane 5's title on an HTTP server.
func (m *Model) networkTitle() string {
	if m.net.log {
		return fmt.Sprintf("5 Network log (%d) · v exchanges", m.sess.StderrLog().Len())
	}
	b := m.sess.Network()
	t := fmt.Sprintf("5 Network (%d)", b.Len())
	open := 0
	for i := range b.Len() {
		if b.At(i).Open {
			open++
		}
	}
	if open > 0 {
		t += fmt.Sprintf(" · %d open", open)
	}
	if n := b.Failed(); n > 0 {
		t += fmt.Sprintf(" · %d failed", n)
	}
	if n := b.Dropped(); n > 0 {
		t += fmt.Sprintf(" · %d dropped", n)
	}
	return t
}

// netColumns are which optional columns fit in w cells.
type netColumns struct{ size, kind, clock bool }

func netColumnsFor(w int) netColumns {
	return netColumns{size: w >= 48, kind: w >= 60, clock: w >= 84}
}

// drawNetwork draws the visible exchanges.
func (m *Model) drawNetwork(w, h int) []string {
	st := m.styles
	b := m.sess.Network()
	n := b.Len()
	l := &m.net.list
	if d := b.Dropped() - m.net.dropped; d > 0 {
		l.shift(d)
	}
	m.net.dropped = b.Dropped()
	if !m.net.scrolled {
		l.cursor = max(n-1, 0)
	}
	l.clamp(n)
	l.offset = kit.Window(l.offset, l.cursor, n, h)
	if n == 0 {
		msg := "  no HTTP exchanges yet"
		if m.sess.StderrLog().Len() > 0 {
			msg += " · v shows the transport's log"
		}
		return []string{kit.Row(st, w, false, kit.Own(msg, w, st.Muted))}
	}
	cols := netColumnsFor(w)
	var out []string
	i := l.offset
	defer func() { m.scrolls[paneStderr] = kit.Scroll{Above: l.offset, Below: n - i} }()
	for ; i < n && len(out) < h; i++ {
		x := b.At(i)
		sel := i == l.cursor && m.focus == paneStderr
		out = append(out, kit.Row(st, w, sel, m.networkRow(x, w, cols)...))
	}
	return out
}

// networkRow is one exchange's columns: status, method, time, [size],
// [type], [clock], and what it carried.
func (m *Model) networkRow(x *model.NetExchange, w int, cols netColumns) []kit.Seg {
	st := m.styles
	status, sst := "···", st.Muted
	switch {
	case x.Err != "":
		status, sst = "ERR", st.Error
	case x.Status >= 400:
		status, sst = fmt.Sprint(x.Status), st.Error
	case x.Status >= 300:
		status, sst = fmt.Sprint(x.Status), st.Warn
	case x.Status > 0:
		status, sst = fmt.Sprint(x.Status), st.OK
	}
	segs := []kit.Seg{kit.Txt(" ", st.Text), kit.Own(status, 4, sst.Bold(true)), kit.Own(x.Method, 7, st.Accent)}
	took := fmtTook(x.Took())
	segs = append(segs, kit.Own(inert.Pad(took, 7)+" ", 8, st.Text))
	used := 1 + 4 + 7 + 8
	if cols.size {
		size := model.FormatSize(int(x.Bytes))
		if x.Err != "" {
			size = "-"
		}
		segs = append(segs, kit.Own(size, 10, st.Muted))
		used += 10
	}
	if cols.kind {
		segs = append(segs, kit.Own(shortType(x.ContentType), 6, st.Muted))
		used += 6
	}
	if cols.clock {
		segs = append(segs, kit.Own(fmtClock(x.Time), 13, st.Subtle))
		used += 13
	}
	what, wst := m.carriedSummary(x)
	segs = append(segs, kit.Srv(what, max(w-used, 0), wst))
	return segs
}

// fmtTook is an exchange's duration in at most 7 cells.
func fmtTook(d time.Duration) string {
	switch {
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmtAge(d)
}

// shortType names a media type in a few cells: json, sse, html, text.
func shortType(mt string) string {
	switch mt {
	case "":
		return "-"
	case "application/json":
		return "json"
	case "text/event-stream":
		return "sse"
	case "text/html":
		return "html"
	case "text/plain":
		return "text"
	}
	if _, sub, ok := strings.Cut(mt, "/"); ok {
		return sub
	}
	return mt
}

// carriedSummary says what an exchange carried: the request's message
// (method and id), what the response delivered (a result, an error, a
// stream's events and whether it is open), or the failure.
func (m *Model) carriedSummary(x *model.NetExchange) (string, lipgloss.Style) {
	st := m.styles
	if x.Err != "" {
		return x.Err, st.Error
	}
	var parts []string
	if x.Resume {
		parts = append(parts, "resume")
	}
	if len(x.Sent) > 0 {
		label := refLabel(x.Sent[0])
		if k := x.Sent[0].Kind; k == model.KindResponse || k == model.KindError {
			label = "answer #" + x.Sent[0].ID // to a server's request
		}
		parts = append(parts, label)
		if len(x.Sent) > 1 {
			parts = append(parts, fmt.Sprintf("+%d", len(x.Sent)-1))
		}
	} else if x.Method == http.MethodGet && !x.Resume {
		parts = append(parts, "stream")
	} else if x.Method == http.MethodDelete {
		parts = append(parts, "end session")
	}
	switch {
	case x.ContentType == "text/event-stream":
		parts = append(parts, plural(x.Messages, "event"))
	case x.Messages == 1 && len(x.Received) == 1:
		parts = append(parts, "→ "+x.Received[0].Kind.String())
	case x.Messages > 0:
		parts = append(parts, "→ "+plural(x.Messages, "message"))
	}
	style := st.Text
	switch {
	case x.Open:
		parts = append(parts, "open")
		style = st.Info
	case x.EndErr != "":
		parts = append(parts, "broke: "+x.EndErr)
		style = st.Error
	case x.Status >= 400:
		style = st.Error
	}
	return strings.Join(parts, " · "), style
}

// refLabel names a carried message: method and id, an answer's id.
func refLabel(r model.MessageRef) string {
	switch r.Kind {
	case model.KindRequest:
		if r.Target != "" {
			return r.Method + " " + r.Target + " #" + r.ID
		}
		return r.Method + " #" + r.ID
	case model.KindNotification:
		return r.Method
	case model.KindResponse, model.KindError:
		return r.Kind.String() + " #" + r.ID
	case model.KindDiscarded:
		return "over the limit (" + model.FormatSize(r.Size) + ")"
	}
	return r.Kind.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// selectedExchange is the exchange under the cursor, or nil.
func (m *Model) selectedExchange() *model.NetExchange {
	b := m.sess.Network()
	if c := m.net.list.cursor; c >= 0 && c < b.Len() {
		return b.At(c)
	}
	return nil
}

// networkKey handles the network view's own keys.
func (m *Model) networkKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Network
	if key.Matches(msg, k.Log) {
		m.net.log = !m.net.log
		if m.net.log {
			m.say(false, "the transport's log: each exchange on one line, OAuth steps, warnings")
		}
		return nil
	}
	if m.net.log {
		return nil
	}
	if key.Matches(msg, k.Follow) {
		m.net.scrolled = false
		m.net.list.cursor = max(m.sess.Network().Len()-1, 0)
		return nil
	}
	x := m.selectedExchange()
	if x == nil {
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		raw, err := exchangeDoc(x, m.sess.History())
		if err != nil {
			m.say(true, "%v", err)
			return nil
		}
		title := fmt.Sprintf("exchange %d · %s", x.ID, inert.Fit(x.Method, 8))
		if x.Status != 0 {
			title += fmt.Sprintf(" %d %s", x.Status, http.StatusText(x.Status))
		}
		m.openRaw(title, raw)
	case key.Matches(msg, k.Request):
		m.openCarried(x.Sent, "the request carried no JSON-RPC message ("+x.Method+")")
	case key.Matches(msg, k.Response):
		m.openCarried(x.Received, "the response carried no JSON-RPC message")
	case key.Matches(msg, k.Traffic):
		m.exchangeToTraffic(x)
	}
	return nil
}

// firstLine is the Seq of the first carried message found in the traffic.
func firstLine(refs []model.MessageRef) uint64 {
	for _, r := range refs {
		if r.Seq != 0 {
			return r.Seq
		}
	}
	return 0
}

// openCarried opens the first of refs' traffic lines in the viewer.
func (m *Model) openCarried(refs []model.MessageRef, none string) {
	if seq := firstLine(refs); seq != 0 {
		m.openSeq(seq)
		return
	}
	if len(refs) > 0 {
		m.say(true, "its traffic line was not found (lost under load, or evicted)")
		return
	}
	m.say(true, "%s", none)
}

// exchangeToTraffic focuses the traffic pane on the exchange's line: its
// request's, else the first its response delivered.
func (m *Model) exchangeToTraffic(x *model.NetExchange) {
	seq := firstLine(x.Sent)
	if seq == 0 {
		seq = firstLine(x.Received)
	}
	if seq == 0 {
		m.say(true, "this exchange carried no traffic line")
		return
	}
	h := m.sess.History()
	i := m.traffic.indexOf(h, seq)
	if i < 0 {
		m.say(true, "entry #%d is evicted or filtered out", seq)
		return
	}
	m.focusPane(paneTraffic)
	m.traffic.follow = false
	m.traffic.list.cursor = i
}

// exchangeDoc is the exchange as a JSON document for the viewer: what a
// browser's network tab shows of a request, in the order one reads it.
func exchangeDoc(x *model.NetExchange, h *model.History) (json.RawMessage, error) {
	type msg struct {
		Traffic string `json:"traffic"`
		Kind    string `json:"kind"`
		ID      string `json:"id,omitempty"`
		Method  string `json:"method,omitempty"`
		Target  string `json:"target,omitempty"`
		Size    string `json:"size"`
	}
	type side struct {
		Headers       json.RawMessage `json:"headers"`
		ContentLength *int64          `json:"contentLength,omitempty"`
		Bytes         string          `json:"bytes"`
		Messages      *int            `json:"messages,omitempty"`
		Carried       []msg           `json:"carried,omitempty"`
		More          string          `json:"more,omitempty"`
	}
	type timing struct {
		Sent    string `json:"sent"`
		Headers string `json:"headers"`
		Ended   string `json:"ended,omitempty"`
		State   string `json:"state"`
	}
	type doc struct {
		Exchange  uint64 `json:"exchange"`
		Transport string `json:"transport,omitempty"`
		Method    string `json:"method"`
		URL       string `json:"url"`
		Status    string `json:"status,omitempty"`
		Error     string `json:"error,omitempty"`
		Timing    timing `json:"timing"`
		Request   side   `json:"request"`
		Response  *side  `json:"response,omitempty"`
		Secrets   string `json:"secrets"`
	}
	carried := func(refs []model.MessageRef) []msg {
		var out []msg
		for _, r := range refs {
			t := "not found"
			switch {
			case r.Seq != 0 && h.BySeq(r.Seq) != nil:
				t = fmt.Sprintf("#%d", r.Seq)
			case r.Seq != 0:
				t = fmt.Sprintf("#%d (evicted)", r.Seq)
			}
			out = append(out, msg{Traffic: t, Kind: r.Kind.String(), ID: r.ID, Method: r.Method, Target: r.Target, Size: model.FormatSize(r.Size)})
		}
		return out
	}
	d := doc{Exchange: x.ID, Transport: x.Transport, Method: x.Method, URL: x.URL, Error: x.Err,
		Timing:  timing{Sent: x.Time.Format("2006-01-02 15:04:05.000"), Headers: x.Headers.Round(time.Microsecond).String(), State: exchangeState(x)},
		Request: side{Headers: headerObject(x.RequestHeader), Bytes: model.FormatSize(x.RequestBytes), Carried: carried(x.Sent)},
		Secrets: "Authorization, cookies and credential-like headers are shown as [redacted], Mcp-Session-Id by its first four characters; URL passwords and secret query parameters too",
	}
	if !x.Ended.IsZero() {
		d.Timing.Ended = x.Ended.Sub(x.Time).Round(time.Microsecond).String()
	}
	if x.Status != 0 {
		d.Status = fmt.Sprintf("%d %s", x.Status, http.StatusText(x.Status))
		n := x.Messages
		resp := &side{Headers: headerObject(x.ResponseHeader), Bytes: model.FormatSize(int(x.Bytes)), Messages: &n, Carried: carried(x.Received)}
		if x.ContentLength >= 0 {
			cl := x.ContentLength
			resp.ContentLength = &cl
		}
		if more := x.Messages - len(x.Received); more > 0 {
			resp.More = fmt.Sprintf("%d more not indexed (the first %d are)", more, model.MaxCarried)
		}
		d.Response = resp
	}
	return json.Marshal(d)
}

// exchangeState says where an exchange's body is.
func exchangeState(x *model.NetExchange) string {
	switch {
	case x.Err != "":
		return "failed: no response"
	case x.Open:
		return "open: the body is still being read"
	case x.EndErr != "":
		return "broke: " + x.EndErr
	case x.Closed:
		return "closed by the client before its end"
	}
	return "complete"
}

// headerObject is headers as a JSON object, in their order, repeated
// names' values joined.
func headerObject(hs []model.Header) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < len(hs); {
		j := i + 1
		vals := []string{hs[i].Value}
		for j < len(hs) && strings.EqualFold(hs[j].Name, hs[i].Name) {
			vals = append(vals, hs[j].Value)
			j++
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(hs[i].Name)
		val, _ := json.Marshal(strings.Join(vals, ", "))
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
		i = j
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}
