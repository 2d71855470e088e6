package catalog

import (
	"encoding/json"
	"strconv"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// loaded is a catalog over a fake, listed, with setup applied, wrapped
// as a program model.
func loaded(t *testing.T, dir string, setup func(f *fake, m *Model)) func() tea.Model {
	return func() tea.Model {
		f := newFake(dir)
		f.results["get-structured-content"] = `{"content":[{"type":"text","text":"{\"temperature\":22.5,\"conditions\":\"Partly cloudy\",\"humidity\":65}"}],"structuredContent":{"temperature":22.5,"conditions":"Partly cloudy","humidity":"65%"}}`
		m := newTest(t, f, nil)
		if setup != nil {
			setup(f, m)
		}
		return Run{M: m}
	}
}

func TestScreen(t *testing.T) {
	cases := []struct {
		name  string
		dir   string
		setup func(f *fake, m *Model)
		msgs  []tea.Msg
	}{
		{"tools_details", "everything", func(f *fake, m *Model) { selectTool(m, "get-structured-content") }, nil},
		{"call_form", "everything", func(f *fake, m *Model) { selectTool(m, "get-annotated-message") }, screentest.Keys("enter", "right", "down")},
		{"call_options", "everything", func(f *fake, m *Model) { selectTool(m, "trigger-long-running-operation") }, screentest.Keys("enter", "ctrl+g")},
		{"result_structured", "everything", func(f *fake, m *Model) { selectTool(m, "get-structured-content") }, screentest.Keys("enter", "right", "ctrl+s")},
		{"template_completion", "everything", func(f *fake, m *Model) { m.setTab(Templates) }, append(screentest.Keys("enter"), screentest.Type("1")...)},
		{"resources_read", "demo", func(f *fake, m *Model) { m.setTab(Resources) }, screentest.Keys("enter")},
		{"log_tab", "everything", func(f *fake, m *Model) {
			for i, l := range protocol.LogLevels() {
				feed(m, NotificationMsg{N: mcp.Notification{Method: mcp.NotificationMessage,
					Params: json.RawMessage(`{"level":"` + l + `","logger":"everything","data":"message number ` + strconv.Itoa(i) + `"}`)}})
			}
			feed(m, NotificationMsg{N: mcp.Notification{Method: mcp.NotificationMessage, Params: json.RawMessage(`{"level":"info","data":{"structured":true,"n":[1,2]}}`)}})
			m.setTab(Log)
		}, nil},
		{"list_changed_diff", "demo", func(f *fake, m *Model) {
			f.tools = append(f.tools[2:], mcp.Tool{Name: "surprise", Description: "A tool that comes and goes.", Raw: json.RawMessage(`{"name":"surprise"}`)})
			feed(m, NotificationMsg{N: mcp.Notification{Method: mcp.NotificationToolsChanged}})
		}, nil},
		{"skills_details", "demo", func(f *fake, m *Model) { withSkills(f); m.setTab(Skills) }, screentest.Keys("u", "down")},
		{"skills_verified", "demo", func(f *fake, m *Model) { withSkills(f); m.setTab(Skills) }, screentest.Keys("u", "down", "enter")},
		{"subscribe_dialog", "demo", nil, screentest.Keys("s", "down", "down", "space", "down", "down", "down", "space")},
		{"running_progress", "everything", func(f *fake, m *Model) {
			f.block = make(chan struct{})
			selectTool(m, "trigger-long-running-operation")
			press(m, "enter")
			m.Update(screentest.Key("ctrl+s"))
			m.Update(runMsg{id: m.run.id, progress: &progressValue})
		}, nil},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{100, 30}, {160, 48}} {
			t.Run(c.name+"_"+strconv.Itoa(size[0])+"x"+strconv.Itoa(size[1]), func(t *testing.T) {
				styled, plain := cmds().Run(t, loaded(t, c.dir, c.setup), size[0], size[1], c.msgs...)
				t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
				t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
			})
		}
	}
}
