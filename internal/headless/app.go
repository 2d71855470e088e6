package headless

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcptui/mcptui/apps"
	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/urlpolicy"
	"github.com/mcptui/mcptui/mcp"
)

// RunApp runs mcptui app TOOL: it calls the tool, reads the ui:// resource
// its _meta.ui.resourceUri names, and serves the App on 127.0.0.1 for a
// browser tab (opened through the URL-opening policy, or printed), relaying
// the App's calls to the server and printing each one, until the tab is
// closed, the server exits or mcptui is interrupted.
func RunApp(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	rec, err := OpenRecorder(cfg)
	if err != nil {
		f := fail(KindInternal, "%v", err)
		report(stderr, f)
		return f.Exit
	}
	s, f := connect(ctx, cfg, ConnectOptions{Recorder: rec, Stderr: stderr, Capabilities: apps.ClientCapabilities})
	defer s.closeOnPanic()
	if f == nil {
		f = s.app(ctx, stdout)
	}
	if err := s.close(); err != nil && f == nil {
		f = fail(KindInternal, "%v", err)
	}
	if f != nil {
		report(stderr, f)
		return f.Exit
	}
	return ExitOK
}

func (s *session) app(ctx context.Context, stdout io.Writer) *Failure {
	c := s.client
	say := func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) }
	if !declaresExtension(c.Session().Capabilities, apps.ExtensionID) {
		s.notes.printf("the server declares no %s extension; going by the tool's _meta alone", apps.ExtensionID)
	}
	list, err := c.ListTools(ctx, s.requestOptions(mcp.MethodListTools)...)
	if err != nil {
		return s.failure(ctx, err)
	}
	tools := map[string]apps.ToolUI{}
	var tool *mcp.Tool
	for i, t := range list.Items {
		tools[t.Name] = apps.ForTool(t)
		if t.Name == s.cfg.Target {
			tool = &list.Items[i]
		}
	}
	if tool == nil {
		return fail(KindUsage, "the server lists no tool %q", s.cfg.Target)
	}
	ui := tools[tool.Name]
	if ui.ResourceURI == "" {
		return fail(KindUsage, "the tool %q declares no App (no _meta.ui.resourceUri)", tool.Name)
	}
	if ui.Deprecated {
		s.notes.printf("the tool names its UI with the deprecated flat _meta[\"ui/resourceUri\"]; the extension's key is _meta.ui.resourceUri")
	}
	var args any
	if s.cfg.Input != nil {
		args = s.cfg.Input
	}
	res, err := c.CallTool(ctx, tool.Name, args, s.requestOptions("tools/call "+tool.Name)...)
	if err != nil {
		return s.failure(ctx, err)
	}
	read, err := c.ReadResource(ctx, ui.ResourceURI, s.requestOptions("resources/read "+ui.ResourceURI)...)
	if err != nil {
		return s.failure(ctx, err)
	}
	doc, meta, f := appDocument(read, ui.ResourceURI)
	if f != nil {
		return f
	}
	if doc.mime != apps.MIMEType {
		s.notes.printf("the UI resource's mimeType is %q, not %s", inert.Line(doc.mime), apps.MIMEType)
	}
	b := &apps.Bridge{Tool: *tool, Input: s.cfg.Input, Result: res.Raw, HTML: doc.html, Meta: meta, Tools: tools,
		Call: func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
			var p any
			if len(params) > 0 {
				p = params
			}
			return c.Request(ctx, method, p, s.requestOptions("App: "+method)...)
		},
		Log: func(line string) { say("%s", line) }}
	url, err := b.Start()
	if err != nil {
		return fail(KindInternal, "%v", err)
	}
	defer b.Close()
	say("App of %s: %s (%s, %s)", inert.Line(tool.Name), inert.Line(ui.ResourceURI), inert.Line(meta.Describe()), fmtSize(len(doc.html)))
	say("serving it at %s", url)
	if _, err := urlpolicy.Openable(url); err != nil {
		return fail(KindInternal, "the App's address is not one to open: %v", err)
	}
	switch {
	case s.cfg.NoOpen:
		say("open that address in a browser; close the tab or press ctrl+c to stop")
	default:
		if err := oauth.OpenBrowser(url); err != nil {
			say("no browser opened (%s): open that address yourself; close the tab or press ctrl+c to stop", inert.Line(err.Error()))
		} else {
			say("opened in your browser; close the tab or press ctrl+c to stop")
		}
	}
	select {
	case <-b.Closed():
	case <-ctx.Done():
		say("interrupted: the App's page is no longer served")
	case <-c.Done():
		return s.failure(ctx, c.Err())
	}
	return nil
}

// appDoc is the App's HTML and its MIME type.
type appDoc struct{ html, mime string }

// appDocument takes the UI resource's HTML (text or base64 blob) and its
// _meta.ui from a resources/read result.
func appDocument(r *mcp.ReadResourceResult, uri string) (appDoc, apps.ResourceMeta, *Failure) {
	for _, ct := range r.Contents {
		if ct.URI != "" && ct.URI != uri {
			continue
		}
		meta := apps.ParseMeta(ct.Meta)
		switch {
		case ct.Text != nil:
			return appDoc{*ct.Text, ct.MIMEType}, meta, nil
		case ct.Blob != nil:
			b, err := base64.StdEncoding.DecodeString(*ct.Blob)
			if err != nil {
				return appDoc{}, meta, fail(KindProtocol, "the UI resource %s's blob is not base64: %v", uri, err)
			}
			return appDoc{string(b), ct.MIMEType}, meta, nil
		}
	}
	return appDoc{}, apps.ResourceMeta{}, fail(KindProtocol, "resources/read %s returned no contents for it", uri)
}

// declaresExtension reports whether capabilities.extensions has id.
func declaresExtension(caps mcp.ServerCapabilities, id string) bool {
	var exts map[string]json.RawMessage
	return json.Unmarshal(caps.Extensions, &exts) == nil && exts[id] != nil
}

func fmtSize(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/1024)
}
