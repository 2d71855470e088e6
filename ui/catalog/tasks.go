package catalog

import (
	"charm.land/bubbles/v2/key"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/mcp"
)

// task is the state of a task as the server reports it.
type task struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           *int64 `json:"ttl"`
	PollInterval  *int64 `json:"pollInterval"`
	// Result is the 2026-07-28 extension's inline result, if any.
	Result json.RawMessage `json:"result"`
}

// terminal reports whether a task has ended.
func (t task) terminal() bool {
	switch t.Status {
	case "completed", "failed", "cancelled":
		return true
	}
	return false
}

// taskOf finds a task in a tools/call result: CreateTaskResult's
// {"task": {...}} (2025-11-25), or a result of resultType "task" (the
// 2026-07-28 tasks extension).
func taskOf(raw json.RawMessage) (task, bool) {
	var r struct {
		Task       *task  `json:"task"`
		ResultType string `json:"resultType"`
		Content    json.RawMessage
	}
	if json.Unmarshal(raw, &r) != nil {
		return task{}, false
	}
	if r.Task != nil && r.Task.TaskID != "" {
		return *r.Task, true
	}
	if r.ResultType == "task" {
		var t task
		if json.Unmarshal(raw, &t) == nil && t.TaskID != "" {
			return t, true
		}
	}
	return task{}, false
}

// tasksOffered reports whether a tool may be called task-augmented on this
// session: on 2025-11-25 only when the server declares
// tasks.requests.tools.call (without it a client MUST NOT augment a
// tools/call, whatever the tool's execution.taskSupport says); on the
// 2026-07-28 tasks extension as the tool says; never before 2025-11-25,
// which had no tasks.
func tasksOffered(info backend.CatalogInfo) bool {
	switch {
	case mcp.Stateless(info.Version):
		return true
	case mcp.CanonicalVersion(info.Version) != mcp.Version20251125:
		return false
	}
	var caps struct {
		Requests struct {
			Tools struct {
				Call json.RawMessage `json:"call"`
			} `json:"tools"`
		} `json:"requests"`
	}
	if json.Unmarshal(info.Capabilities.Tasks, &caps) != nil {
		return false
	}
	call := caps.Requests.Tools.Call
	return len(call) > 0 && string(call) != "null" && string(call) != "false"
}

// offeredTaskSupport is the tool's execution.taskSupport when the session
// lets it be called as a task, else "" (no "as a task" option).
func offeredTaskSupport(info backend.CatalogInfo, t *mcp.Tool) string {
	if t == nil || !tasksOffered(info) {
		return ""
	}
	return taskSupport(t)
}

// taskView follows one task.
type taskView struct {
	tool    *mcp.Tool
	t       task
	started time.Time
	history []string
	polls   int
	err     string
	done    bool
	// resultAsked says a tasks/result is in flight: sent when the task
	// reached input_required (so the server can ask its question over
	// it) or ended.
	resultAsked bool
}

// taskMsg is a task event: a poll to make, a tasks/get answer, the result.
type taskMsg struct {
	id     string
	poll   bool
	got    *task
	result json.RawMessage
	err    error
	what   string
}

// startTask shows a task and starts following it.
func (m *Model) startTask(tool *mcp.Tool, t task) tea.Cmd {
	m.task = &taskView{tool: tool, t: t, started: m.now()}
	m.task.history = append(m.task.history, m.now().Format("15:04:05")+" "+t.Status+" "+t.StatusMessage)
	m.page = pageTask
	m.logs.add(logEntry{at: m.now(), level: "info", text: "task " + t.TaskID + " created: " + t.Status})
	return m.schedulePoll()
}

// schedulePoll polls tasks/get after the task's pollInterval (1 s when
// it gives none).
func (m *Model) schedulePoll() tea.Cmd {
	tv := m.task
	if tv == nil || tv.done {
		return nil
	}
	d := time.Second
	if tv.t.PollInterval != nil && *tv.t.PollInterval > 0 {
		d = time.Duration(*tv.t.PollInterval) * time.Millisecond
	}
	id := tv.t.TaskID
	return tea.Tick(d, func(time.Time) tea.Msg { return taskMsg{id: id, poll: true} })
}

// taskCall sends a tasks/* request for the current task.
func (m *Model) taskCall(method string) tea.Cmd {
	tv := m.task
	if tv == nil {
		return nil
	}
	srv, id, ctx := m.srv, tv.t.TaskID, m.ctx
	return func() tea.Msg {
		raw, err := srv.Call(ctx, method, map[string]any{"taskId": id}, backend.CatalogCallOptions{})
		msg := taskMsg{id: id, err: err, what: method}
		if err != nil {
			return msg
		}
		if method == protocol.MethodTasksResult {
			msg.result = raw
			return msg
		}
		var t task
		if json.Unmarshal(raw, &t) == nil && t.TaskID == "" {
			// Some servers wrap it: {"task": {...}}.
			var w struct {
				Task task `json:"task"`
			}
			_ = json.Unmarshal(raw, &w)
			t = w.Task
		}
		msg.got = &t
		return msg
	}
}

// taskStatus applies a notifications/tasks/status.
func (m *Model) taskStatus(params json.RawMessage) tea.Cmd {
	var t task
	if json.Unmarshal(params, &t) != nil || m.task == nil || t.TaskID != m.task.t.TaskID {
		return nil
	}
	return m.taskUpdate(t)
}

// taskUpdate records a new state; a finished task's result is fetched.
func (m *Model) taskUpdate(t task) tea.Cmd {
	tv := m.task
	if t.Status != tv.t.Status || t.StatusMessage != tv.t.StatusMessage {
		tv.history = append(tv.history, m.now().Format("15:04:05")+" "+t.Status+" "+t.StatusMessage)
	}
	if t.PollInterval == nil {
		t.PollInterval = tv.t.PollInterval
	}
	tv.t = t
	if t.terminal() && !tv.done {
		tv.done = true
		if t.Status == "cancelled" {
			return nil
		}
		if len(t.Result) > 0 {
			return func() tea.Msg { return taskMsg{id: t.TaskID, result: t.Result} }
		}
		return m.askResult()
	}
	if t.Status == "input_required" && !tv.done && len(t.Result) == 0 && !mcp.Stateless(m.srv.Info().Version) {
		// 2025-11-25: the server asks its question (elicitation,
		// sampling) over a tasks/result, which the requestor is to send
		// on input_required; it answers when the task ends.
		tv.history = append(tv.history, m.now().Format("15:04:05")+" tasks/result sent so the server can ask its question")
		return m.askResult()
	}
	return nil
}

// askResult sends tasks/result unless one is in flight already.
func (m *Model) askResult() tea.Cmd {
	if m.task.resultAsked {
		return nil
	}
	m.task.resultAsked = true
	return m.taskCall(protocol.MethodTasksResult)
}

// taskEvent handles a task message.
func (m *Model) taskEvent(msg taskMsg) tea.Cmd {
	tv := m.task
	if tv == nil || msg.id != tv.t.TaskID {
		return nil
	}
	switch {
	case msg.poll:
		if tv.done {
			return nil
		}
		tv.polls++
		return m.taskCall(protocol.MethodTasksGet)
	case msg.err != nil:
		if msg.what == protocol.MethodTasksResult {
			tv.resultAsked = false
		}
		var e *mcp.Error
		if msg.what == protocol.MethodTasksResult && errors.As(msg.err, &e) && e.Code == mcp.CodeMethodNotFound {
			tv.err = "the server has no tasks/result; the last tasks/get is all there is"
			return nil
		}
		tv.err = fmt.Sprintf("%s: %v", msg.what, msg.err)
		if errors.Is(msg.err, context.Canceled) {
			return nil
		}
		return m.schedulePoll()
	case msg.got != nil:
		cmd := m.taskUpdate(*msg.got)
		if tv.done {
			return cmd
		}
		return tea.Batch(cmd, m.schedulePoll())
	case msg.result != nil:
		tv.done, tv.resultAsked = true, false
		tool := tv.tool
		if tool == nil {
			tool = &mcp.Tool{Name: "task " + tv.t.TaskID}
		}
		res := toolResult(tool, msg.result, m.now())
		res.title = "task " + tv.t.TaskID + " of " + tool.Name
		res.elapsed = m.now().Sub(tv.started)
		m.push(res)
	}
	return nil
}

// taskKey handles keys on the task page.
func (m *Model) taskKey(msg tea.KeyPressMsg) tea.Cmd {
	c := m.keys.Catalog
	switch {
	case key.Matches(msg, c.Cancel):
		if m.task != nil && !m.task.done {
			m.say(false, "asking the server to cancel the task…")
			return m.taskCall(protocol.MethodTasksCancel)
		}
	case key.Matches(msg, c.Poll):
		return m.taskCall(protocol.MethodTasksGet)
	case key.Matches(msg, c.Fetch):
		if m.task != nil && m.task.done {
			m.task.resultAsked = true
			return m.taskCall(protocol.MethodTasksResult)
		}
	case key.Matches(msg, c.Back):
		m.task = nil
		m.page = pageForm
		if m.act == nil {
			m.page = pageList
		}
	}
	return nil
}
