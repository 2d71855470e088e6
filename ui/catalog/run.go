package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

// running is a call in flight.
type running struct {
	id      int
	what    string
	tool    *mcp.Tool
	started time.Time
	cancel  context.CancelFunc
	prog    *conn.Progress
	count   int
	updates chan conn.Progress
	done    chan struct{}
	// cancelled is set once the person cancelled: whatever comes is only
	// reported.
	cancelled bool
}

// runMsg is an event of a running call.
type runMsg struct {
	id       int
	progress *conn.Progress
	tick     bool
	done     bool
	raw      json.RawMessage
	err      error
	// res is set for reads and prompts, decoded already.
	res *result
}

// start begins a call: fn runs in a Cmd with a context the person can
// cancel, and progress reaches the catalog through the returned
// callback.
func (m *Model) start(what string, tool *mcp.Tool, fn func(ctx context.Context, progress func(conn.Progress)) (json.RawMessage, *result, error)) tea.Cmd {
	m.seq++
	ctx, cancel := context.WithCancel(m.ctx)
	r := &running{id: m.seq, what: what, tool: tool, started: m.now(), cancel: cancel,
		updates: make(chan conn.Progress, 64), done: make(chan struct{})}
	if m.runs == nil {
		m.runs = map[int]*running{}
	}
	m.runs[r.id] = r
	m.run, m.page = r, pageRunning
	progress := func(p conn.Progress) {
		for {
			select {
			case r.updates <- p:
				return
			default: // full: drop the oldest, keep the latest
				select {
				case <-r.updates:
				default:
				}
			}
		}
	}
	call := func() tea.Msg {
		defer close(r.done)
		defer cancel()
		raw, res, err := fn(ctx, progress)
		return runMsg{id: r.id, done: true, raw: raw, res: res, err: err}
	}
	return tea.Batch(call, m.waitProgress(r), m.tickRun(r))
}

// waitProgress waits for the next progress of a running call.
func (m *Model) waitProgress(r *running) tea.Cmd {
	return func() tea.Msg {
		select {
		case p := <-r.updates:
			return runMsg{id: r.id, progress: &p}
		case <-r.done:
			return nil
		}
	}
}

// tickRun redraws a running call's clock.
func (m *Model) tickRun(r *running) tea.Cmd {
	d := m.opts.Tick
	if d < 0 {
		return nil
	}
	if d == 0 {
		d = 250 * time.Millisecond
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return runMsg{id: r.id, tick: true} })
}

// runEvent handles progress, ticks and the end of a call. A call goes on
// when the person leaves its page; its outcome comes back here.
func (m *Model) runEvent(msg runMsg) tea.Cmd {
	r := m.runs[msg.id]
	if r == nil {
		return nil
	}
	switch {
	case msg.progress != nil:
		r.prog = msg.progress
		r.count++
		return m.waitProgress(r)
	case msg.tick:
		if m.run != r {
			return nil // the clock is drawn only on its page
		}
		return m.tickRun(r)
	}
	delete(m.runs, r.id)
	shown := m.run == r && m.page == pageRunning
	if m.run == r {
		m.run = nil
	}
	back := func() {
		if shown {
			m.page = m.pageUnder()
		}
	}
	elapsed := m.now().Sub(r.started)
	if r.cancelled || errors.Is(msg.err, context.Canceled) {
		back()
		m.say(true, "cancelled "+r.what+" (notifications/cancelled sent)")
		return nil
	}
	if msg.err != nil {
		back()
		m.say(true, fmt.Sprintf("%s failed after %s: %v", r.what, elapsed.Round(time.Millisecond), msg.err))
		m.logs.add(logEntry{at: m.now(), level: "error", text: r.what + ": " + msg.err.Error()})
		return nil
	}
	if msg.res == nil {
		task, _ := taskOf(msg.raw)
		return m.startTask(r.tool, task)
	}
	res := msg.res.clone()
	res.elapsed = elapsed
	if shown || m.page == pageList || m.page == pageResult {
		m.push(res)
		return m.markResult(r.tool, msg.raw, res)
	}
	// The person is filling a form: the result waits under it.
	m.results = append(m.results, res)
	m.say(false, r.what+" is done: its result is under this page ("+m.keys.Catalog.Back.Help().Key+")")
	return m.markResult(r.tool, msg.raw, res)
}

// pageUnder is the page below a call's or a result's: the form, if one is
// being filled, else the lists.
func (m *Model) pageUnder() page {
	if m.act != nil {
		return pageForm
	}
	return pageList
}

// leaveRun goes back from a running call's page to the lists (the sent
// form is done with; enter on the item opens it again, remembered); the
// call goes on.
func (m *Model) leaveRun() {
	if m.run != nil {
		m.say(false, m.run.what+" goes on (pane 1 shows it): its result comes back here")
	}
	m.act, m.page = nil, pageList
}

// cancelRun cancels the call shown on the running page.
func (m *Model) cancelRun() {
	if m.run != nil {
		m.run.cancel()
		m.run.cancelled = true
		m.say(false, "cancelling "+m.run.what+"…")
	}
}

// Running is the number of the catalog's calls in flight.
func (m *Model) Running() int { return len(m.runs) }

// callTool calls a tool with arguments.
func (m *Model) callTool(t *mcp.Tool, args json.RawMessage, spec callSpec) tea.Cmd {
	srv, now := m.srv, m.now
	params := map[string]any{"name": t.Name, "arguments": args}
	if spec.task && tasksOffered(m.srv.Info()) {
		params["task"] = map[string]any{"ttl": 300000}
	}
	if len(spec.meta) > 0 {
		params["_meta"] = spec.meta
	}
	return m.start("tools/call "+t.Name, t, func(ctx context.Context, progress func(conn.Progress)) (json.RawMessage, *result, error) {
		o := spec.opts
		if spec.progress {
			o.Progress = progress
		}
		raw, err := srv.Call(ctx, mcp.MethodCallTool, params, o)
		if err != nil {
			return nil, nil, err
		}
		if _, ok := taskOf(raw); ok {
			return raw, nil, nil
		}
		// The result (a big one too) is taken apart here, off the update
		// loop.
		return raw, toolResult(t, raw, now()), nil
	})
}

// read reads a resource.
func (m *Model) read(uri, what string) tea.Cmd {
	srv, now := m.srv, m.now
	return m.start(what, nil, func(ctx context.Context, _ func(conn.Progress)) (json.RawMessage, *result, error) {
		res, err := srv.ReadResource(ctx, uri)
		if err != nil {
			return nil, nil, err
		}
		return res.Raw, readResult(uri, res, now()), nil
	})
}

// getPrompt gets a prompt.
func (m *Model) getPrompt(name string, args map[string]string) tea.Cmd {
	srv, now := m.srv, m.now
	return m.start("prompts/get "+name, nil, func(ctx context.Context, _ func(conn.Progress)) (json.RawMessage, *result, error) {
		res, err := srv.GetPrompt(ctx, name, args)
		if err != nil {
			return nil, nil, err
		}
		return res.Raw, promptResult(name, res, now()), nil
	})
}
