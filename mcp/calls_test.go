package mcp

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

func TestContentTypesKeepRawJSON(t *testing.T) {
	_, c := modernClient(t, nil)
	res, err := c.CallTool(testCtx(t), "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 6 {
		t.Fatalf("%d items", len(res.Content))
	}
	text, img, audio, link, emb, other := res.Content[0], res.Content[1], res.Content[2], res.Content[3], res.Content[4], res.Content[5]
	if text.Type != ContentText || text.Text != "t" || text.Annotations == nil || *text.Annotations.Priority != 0.5 || text.Annotations.Audience[0] != "user" {
		t.Errorf("text %+v", text)
	}
	if img.Type != ContentImage || img.Data != "aGk=" || img.MIMEType != "image/png" || audio.Type != ContentAudio || audio.MIMEType != "audio/wav" {
		t.Errorf("image %+v audio %+v", img, audio)
	}
	if link.Type != ContentResourceLink || link.URI != "file:///x" || link.Name != "x" || *link.Size != 12 {
		t.Errorf("link %+v", link)
	}
	if emb.Type != ContentResource || emb.Resource == nil || emb.Resource.URI != "file:///y" || *emb.Resource.Text != "why" || emb.Resource.Blob != nil {
		t.Errorf("embedded %+v", emb)
	}
	if other.Type != "hologram" || string(other.Raw) != `{"type":"hologram","depth":3}` {
		t.Errorf("unknown content %+v", other)
	}
	if string(res.StructuredContent) != `[1,2]` || string(res.Meta) != `{"k":"v"}` || !strings.HasPrefix(string(res.Raw), `{"resultType":"complete"`) {
		t.Errorf("result %+v", res)
	}
}

func TestModernTypedCalls(t *testing.T) {
	_, c := modernClient(t, nil)
	ctx := testCtx(t)
	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Items) != 2 || tools.Items[1].Title != "Rounds" || !strings.Contains(string(tools.Items[0].Raw), `"x-extra":1`) ||
		!strings.Contains(string(tools.Pages[0]), `"ttlMs":5`) {
		t.Errorf("tools %+v", tools)
	}
	p, err := c.GetPrompt(ctx, "greet", map[string]string{"who": "me"})
	if err != nil || p.Description != "p" || p.Messages[0].Role != "user" || p.Messages[0].Content.Text != "hi greet" {
		t.Errorf("prompt %+v %v", p, err)
	}
	comp, err := c.Complete(ctx, PromptRef("greet"), "who", "al", map[string]string{"x": "y"})
	if err != nil || strings.Join(comp.Values, ",") != "alpha,alps" || *comp.Total != 2 || comp.HasMore {
		t.Errorf("completion %+v %v", comp, err)
	}
	dr, err := c.Discover(ctx)
	if err != nil || dr.ServerInfo == nil || dr.ServerInfo.Name != "fake-modern" || dr.SupportedVersions[0] != Version20260728 || dr.CacheScope != "public" {
		t.Errorf("discover %+v %v", dr, err)
	}
}

func TestModernListen(t *testing.T) {
	s, c := modernClient(t, nil)
	ctx := testCtx(t)
	sub, err := c.Listen(ctx, Filter{ToolsListChanged: true, PromptsListChanged: true, ResourceSubscriptions: []string{"file:///a"},
		Extra: json.RawMessage(`{"taskIds":["t1"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	listen := s.wire.sent(MethodListen)
	if len(listen) != 1 {
		t.Fatalf("%d listen lines", len(listen))
	}
	if got := string(listen[0].param("notifications")); got != `{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["file:///a"],"taskIds":["t1"]}` {
		t.Errorf("filter sent %s", got)
	}
	if v, _ := stringMember(listen[0].meta(), MetaProtocolVersion); v != Version20260728 {
		t.Errorf("listen _meta %s", listen[0].param("_meta"))
	}
	if got := string(sub.Accepted()); got != `{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]}` {
		t.Errorf("accepted %s", got)
	}
	if string(sub.ID()) != string(listen[0].id) {
		t.Errorf("id %s", sub.ID())
	}
	if _, err := c.CallTool(ctx, "change", nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{NotificationToolsChanged, NotificationResourceUpdated} {
		n, err := sub.Next(ctx)
		if err != nil || n.Method != want {
			t.Errorf("event %v %v, want %s", n, err, want)
		}
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := sub.Next(ctx); err != io.EOF {
		t.Errorf("Next after Close: %v", err)
	}
	// Lines go out in order: once a later call is answered, the
	// cancellation has been written.
	if _, err := c.CallTool(ctx, "echo", nil); err != nil {
		t.Fatal(err)
	}
	if cs := s.wire.sent(NotificationCancelled); len(cs) != 1 || string(cs[0].param("requestId")) != string(sub.ID()) {
		t.Error("no cancellation for the closed subscription")
	}
}

func TestReconnect(t *testing.T) {
	s, c := modernClient(t, nil)
	pid := c.PID()
	c2, err := c.Reconnect(testCtx(t), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Shutdown(2 * time.Second)
	select {
	case <-c.Done():
	default:
		t.Error("the old connection is still open")
	}
	if c2.PID() == pid || c2.Version() != Version20260728 || s.spawns() != 2 {
		t.Errorf("pid %d→%d, version %s, %d spawns", pid, c2.PID(), c2.Version(), s.spawns())
	}
	cmd, args := c2.Command()
	if cmd == "" || len(args) != 0 || c2.Options().ProbeTimeout != s.opts.ProbeTimeout {
		t.Errorf("command %q %v", cmd, args)
	}
	if _, err := c2.ListTools(testCtx(t)); err != nil {
		t.Error(err)
	}
	if _, err := c.ListTools(testCtx(t)); errCode(t, err).Code != CodeConnection {
		t.Errorf("old client: %v", err)
	}
	if c2.Conn() == nil || c2.Err() != nil {
		t.Error("Conn/Err")
	}
}

func TestConnectContextOwnsClient(t *testing.T) {
	s := newFake(t, "modern", "")
	ctx, cancel := context.WithCancel(testCtx(t))
	c := s.mustConnect(ctx)
	cancel()
	<-c.Done()
	if _, err := c.ListTools(testCtx(t)); errCode(t, err).Code != CodeConnection {
		t.Errorf("after the owner went: %v", err)
	}
	sub, err := c.Listen(testCtx(t), Filter{ToolsListChanged: true})
	if err == nil {
		_, err = sub.Next(testCtx(t))
	}
	if err == nil || err == io.EOF {
		t.Errorf("listen on a stopped client: %v", err)
	}
}
