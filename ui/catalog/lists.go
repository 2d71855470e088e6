package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/skills"
)

// offered reports whether the server declared the capability behind a
// list.
func (m *Model) offered(k Kind) bool {
	caps := m.srv.Info().Capabilities
	switch k {
	case Tools:
		return caps.Tools != nil
	case Resources, Templates:
		return caps.Resources != nil
	case Prompts:
		return caps.Prompts != nil
	case Skills:
		return skills.Declared(caps).Declared
	}
	return true
}

// refreshAll lists every kind the server offers.
func (m *Model) refreshAll() tea.Cmd {
	var cmds []tea.Cmd
	for k := Tools; k < Log; k++ {
		cmds = append(cmds, m.refresh(k))
	}
	return tea.Batch(cmds...)
}

// refresh lists one kind.
func (m *Model) refresh(k Kind) tea.Cmd {
	l := m.lists[k]
	if m.srv.Info().Version == "" {
		l.err, l.loaded = "not connected yet: u lists again", true
		return nil
	}
	if !m.offered(k) {
		l.err, l.loaded = "the server does not offer "+map[Kind]string{Tools: "tools", Resources: "resources", Templates: "resources", Prompts: "prompts", Skills: "skills (" + skills.ExtensionID + ")"}[k], true
		return nil
	}
	l.loading = true
	srv, now, ctx := m.srv, m.now, m.ctx
	return func() tea.Msg {
		var items []item
		var err error
		switch k {
		case Tools:
			var ts []mcp.Tool
			ts, err = srv.ListTools(ctx)
			items = toolItems(ts)
		case Resources:
			var rs []mcp.Resource
			rs, err = srv.ListResources(ctx)
			items = resourceItems(rs)
		case Templates:
			var ts []mcp.ResourceTemplate
			ts, err = srv.ListResourceTemplates(ctx)
			items = templateItems(ts)
		case Prompts:
			var ps []mcp.Prompt
			ps, err = srv.ListPrompts(ctx)
			items = promptItems(ps)
		case Skills:
			var ss []skills.Skill
			ss, err = skills.ListWith(ctx, func(ctx context.Context, method string, params any) (json.RawMessage, error) {
				return srv.Call(ctx, method, params, backend.CatalogCallOptions{})
			})
			items = skillItems(ss)
		}
		return listedMsg{kind: k, items: prepare(items), err: err, at: now()}
	}
}

// listed installs a listing.
func (m *Model) listed(msg listedMsg) tea.Cmd {
	l := m.lists[msg.kind]
	if msg.err != nil {
		l.loading, l.loaded, l.err = false, true, msg.err.Error()
		return nil
	}
	l.replace(msg.items, msg.at)
	l.cursor = min(l.cursor, max(l.rows(m.filters[msg.kind]).len()-1, 0))
	if a, r, c := l.diff(); l.refreshes > 0 && (a+r+c) > 0 {
		m.logs.add(logEntry{at: msg.at, level: "info",
			text: fmt.Sprintf("%s changed: +%d −%d ~%d", msg.kind, a, r, c)})
	}
	return m.workMarks(msg.kind)
}

// autoListen opens the subscription that refreshes the lists when they
// change (on the initialize era it only gathers the server's
// notifications; on 2026-07-28 it is a subscriptions/listen).
func (m *Model) autoListen() tea.Cmd {
	caps := m.srv.Info().Capabilities
	f := mcp.Filter{
		ToolsListChanged:     caps.Tools != nil && caps.Tools.ListChanged,
		PromptsListChanged:   caps.Prompts != nil && caps.Prompts.ListChanged,
		ResourcesListChanged: caps.Resources != nil && caps.Resources.ListChanged,
	}
	if !f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged {
		return nil
	}
	return m.listen(f, true)
}

// notification handles a server notification, from a subscription (s) or
// not.
func (m *Model) notification(n mcp.Notification, s *sub) tea.Cmd {
	at := m.now()
	switch n.Method {
	case mcp.NotificationToolsChanged:
		m.logs.add(logEntry{at: at, level: "info", text: "tools list changed: listing again"})
		return m.refresh(Tools)
	case mcp.NotificationPromptsChanged:
		m.logs.add(logEntry{at: at, level: "info", text: "prompts list changed: listing again"})
		return m.refresh(Prompts)
	case mcp.NotificationResourcesChanged:
		m.logs.add(logEntry{at: at, level: "info", text: "resources list changed: listing again"})
		return tea.Batch(m.refresh(Resources), m.refresh(Templates))
	case mcp.NotificationMessage:
		m.logMessage(at, n)
	case mcp.NotificationResourceUpdated:
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(n.Params, &p)
		m.logs.add(logEntry{at: at, level: "notice", text: "resource updated: " + p.URI, data: n.Params, sub: s})
	case mcp.NotificationTaskStatus, mcp.NotificationTasks:
		m.logs.add(logEntry{at: at, level: "info", text: "task status", data: n.Params})
		return m.taskStatus(n.Params)
	default:
		m.logs.add(logEntry{at: at, level: "debug", text: n.Method, data: n.Params, sub: s})
	}
	return nil
}

// sub is a subscription the catalog opened.
type sub struct {
	id       int
	filter   mcp.Filter
	accepted json.RawMessage
	s        backend.Subscription
	cancel   context.CancelFunc
	events   int
	auto     bool
	err      string
	at       time.Time
}

type subEventMsg struct {
	sub    *sub
	opened bool
	n      mcp.Notification
	err    error
}

// listen opens a subscription and starts reading it.
func (m *Model) listen(f mcp.Filter, auto bool) tea.Cmd {
	m.seq++
	s := &sub{id: m.seq, filter: f, auto: auto, at: m.now()}
	ctx, cancel := context.WithCancel(m.ctx)
	s.cancel = cancel
	srv := m.srv
	return func() tea.Msg {
		sub, err := srv.Listen(ctx, f)
		if err != nil {
			return subEventMsg{sub: s, opened: true, err: err}
		}
		s.s = sub
		s.accepted = sub.Accepted()
		return subEventMsg{sub: s, opened: true}
	}
}

// next reads a subscription's next event.
func (m *Model) next(s *sub) tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		n, err := s.s.Next(ctx)
		return subEventMsg{sub: s, n: n, err: err}
	}
}

func (m *Model) subEvent(msg subEventMsg) tea.Cmd {
	s := msg.sub
	if msg.opened {
		if msg.err != nil {
			s.err = msg.err.Error()
			if !s.auto {
				m.say(true, "subscribing failed: "+msg.err.Error())
			}
			m.logs.add(logEntry{at: m.now(), level: "warning", text: "subscription failed: " + msg.err.Error()})
			return nil
		}
		m.subs = append(m.subs, s)
		what := "opened subscription"
		if s.auto {
			what = "watching the lists for changes"
		}
		m.logs.add(logEntry{at: m.now(), level: "info", text: what + ": accepted " + string(s.accepted)})
		if !s.auto {
			m.say(false, "subscribed; events go to the Log tab")
		}
		return m.next(s)
	}
	if msg.err != nil {
		s.err = msg.err.Error()
		m.dropSub(s)
		return nil
	}
	s.events++
	return tea.Batch(m.notification(msg.n, s), m.next(s))
}

// dropSub forgets a subscription that ended.
func (m *Model) dropSub(s *sub) {
	for i, x := range m.subs {
		if x == s {
			m.subs = append(m.subs[:i], m.subs[i+1:]...)
			break
		}
	}
}

// closeSub closes a subscription.
func (m *Model) closeSub(s *sub) tea.Cmd {
	m.dropSub(s)
	s.cancel()
	return func() tea.Msg {
		if s.s != nil {
			_ = s.s.Close()
		}
		return noticeMsg{text: "closed the subscription"}
	}
}

// current is the selected row of the shown list, or nil.
func (m *Model) current() *listRow {
	if m.tab == Log {
		return nil
	}
	l := m.lists[m.tab]
	rows := l.rows(m.filters[m.tab])
	if l.cursor < 0 || l.cursor >= rows.len() {
		return nil
	}
	r := rows.at(l.cursor)
	return &r
}
