package catalog

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/apps"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/answer"
)

// appOpenedMsg says an App's page is served (or why not).
type appOpenedMsg struct {
	tool    string
	bridge  *apps.Bridge
	url     string
	desc    string
	err     error
	openErr error
}

// appLogMsg is one line of an App's traffic.
type appLogMsg struct{ line string }

// openApp calls the tool with no arguments, reads its UI resource and
// serves the App on 127.0.0.1 for the browser: the App's own calls go
// through the session like every other request (pane 1, the traffic),
// and each is written to the Log tab.
func (m *Model) openApp(t mcp.Tool) tea.Cmd {
	ui := apps.ForTool(t)
	if ui.ResourceURI == "" {
		m.say(true, "this tool declares no MCP App (no _meta.ui.resourceUri)")
		return nil
	}
	if m.appLog == nil {
		m.appLog = make(chan string, 256)
	}
	srv, ctx, logs := m.srv, m.ctx, m.appLog
	open := m.opts.OpenURL
	if open == nil {
		open = answer.OpenURL
	}
	tools := map[string]apps.ToolUI{}
	for _, it := range m.lists[Tools].items {
		if it.tool != nil {
			tools[it.tool.Name] = apps.ForTool(*it.tool)
		}
	}
	m.say(false, "opening the App of "+t.Name+"…")
	return func() tea.Msg {
		fail := func(err error) tea.Msg { return appOpenedMsg{tool: t.Name, err: err} }
		res, err := srv.Call(ctx, mcp.MethodCallTool, map[string]any{"name": t.Name, "arguments": map[string]any{}}, backend.CatalogCallOptions{})
		if err != nil {
			return fail(fmt.Errorf("tools/call: %w", err))
		}
		read, err := srv.ReadResource(ctx, ui.ResourceURI)
		if err != nil {
			return fail(fmt.Errorf("resources/read %s: %w", ui.ResourceURI, err))
		}
		var doc string
		var meta apps.ResourceMeta
		found := false
		for _, ct := range read.Contents {
			if ct.URI != "" && ct.URI != ui.ResourceURI || found {
				continue
			}
			meta = apps.ParseMeta(ct.Meta)
			switch {
			case ct.Text != nil:
				doc, found = *ct.Text, true
			case ct.Blob != nil:
				b, err := base64.StdEncoding.DecodeString(*ct.Blob)
				if err != nil {
					return fail(fmt.Errorf("the UI resource's blob is not base64: %w", err))
				}
				doc, found = string(b), true
			}
		}
		if !found {
			return fail(errors.New("resources/read " + ui.ResourceURI + " returned no HTML for it"))
		}
		b := &apps.Bridge{Tool: t, Input: json.RawMessage(`{}`), Result: res, HTML: doc, Meta: meta, Tools: tools,
			Call: func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
				return srv.Call(ctx, method, params, backend.CatalogCallOptions{})
			},
			Log: func(l string) {
				select {
				case logs <- l:
				default: // the Log tab is behind: drop rather than block the App
				}
			}}
		url, err := b.Start()
		if err != nil {
			return fail(err)
		}
		return appOpenedMsg{tool: t.Name, bridge: b, url: url, desc: meta.Describe(), openErr: open(url)}
	}
}

// appOpened records a served App and starts reading its lines.
func (m *Model) appOpened(msg appOpenedMsg) tea.Cmd {
	if msg.err != nil {
		m.say(true, "the App of "+msg.tool+" did not open: "+inert.Line(msg.err.Error()))
		return nil
	}
	m.bridges = append(m.bridges, msg.bridge)
	text := "App of " + msg.tool + " opened in your browser: " + msg.url
	if msg.openErr != nil {
		text = "App of " + msg.tool + ": no browser opened (" + msg.openErr.Error() + "), open " + msg.url
	}
	text += " · " + msg.desc
	m.say(msg.openErr != nil, inert.Line(text))
	m.logs.add(logEntry{at: m.now(), level: "notice", text: text})
	if len(m.bridges) > 1 {
		return nil // the first App's waiter reads every App's lines
	}
	return m.waitAppLog()
}

// waitAppLog waits for the next line of any App (one waiter at a time).
func (m *Model) waitAppLog() tea.Cmd {
	ch, ctx := m.appLog, m.ctx
	return func() tea.Msg {
		select {
		case l := <-ch:
			return appLogMsg{line: l}
		case <-ctx.Done():
			return nil
		}
	}
}
