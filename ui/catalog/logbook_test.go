package catalog

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// message is a notifications/message handed to the catalog.
func message(params string) NotificationMsg {
	return NotificationMsg{N: mcp.Notification{Method: mcp.NotificationMessage, Params: json.RawMessage(params)}}
}

// Over a host's model the catalog keeps no book of the server's log: a
// notifications/message handed to it is the model's (pane 7's) and not
// kept a second time, the Log tab lists the catalog's events, and the
// level it shows is the model's.
func TestLogTabOverTheHostsModel(t *testing.T) {
	sess := model.New(model.Config{})
	params := `{"level":"error","logger":"books","data":"kept once"}`
	line := `{"jsonrpc":"2.0","method":"notifications/message","params":` + params + `}`
	sess.Apply(model.Wire{Stamp: model.Stamp{Time: fixedNow()}, Dir: model.In, Line: []byte(line), Size: len(line)})
	m := newTestWith(t, newFake("everything"), func(o *Options) { o.Log = sess })
	feed(m, message(params), NotificationMsg{N: mcp.Notification{Method: mcp.NotificationToolsChanged}})
	m.setTab(Log)
	mustContain(t, m, "tools list changed", "Log 1", "level not set")
	mustNotContain(t, m, "kept once")
	if n := sess.Logs().Len(); n != 1 {
		t.Errorf("the model's book holds %d messages, want 1", n)
	}
	sess.Apply(model.LogLevelSet{Stamp: model.Stamp{Time: fixedNow().Add(time.Second)}, Level: "warning"})
	mustContain(t, m, "level warning", "log warning ·")
}

// Alone, the catalog keeps the server's log in a model of its own: the
// messages it is handed are that model's one book, listed among its
// events in the order they came; the level its picker sets is that
// model's; enter opens a message's data as the server sent it.
func TestLogTabAlone(t *testing.T) {
	m := newTest(t, newFake("everything"), nil)
	feed(m, message(`{"level":"error","logger":"books","data":{"kept":"once"}}`),
		NotificationMsg{N: mcp.Notification{Method: mcp.NotificationToolsChanged}},
		message(`{"level":"info","data":"after the event"}`))
	m.setTab(Log)
	s := screen(m)
	if strings.Count(s, `{"kept":"once"}`) != 1 {
		t.Fatalf("the message is not shown once:\n%s", s)
	}
	first, event, last := strings.Index(s, "books:"), strings.Index(s, "tools list changed"), strings.Index(s, "after the event")
	if first < 0 || event < first || last < event {
		t.Fatalf("not in the order they came (message, event, message):\n%s", s)
	}
	if m.own == nil || m.log.Logs() != m.own.Logs() || m.own.Logs().Len() != 2 {
		t.Fatalf("the messages are not the own model's book")
	}
	mustContain(t, m, "level not set", "Log 3")
	press(m, "L", "down", "down", "enter")
	mustContain(t, m, "level notice", "log notice ·")
	press(m, "home", "enter")
	mustContain(t, m, "log error", `"kept"`)
}
