package answer

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

func fixedNow() time.Time { return time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC) }

// question builds a waiting question from params.
func question(kind model.QuestionKind, method string, params []byte) *model.Question {
	return &model.Question{Key: "q1", Kind: kind, Method: method, Params: params, RequestID: json.RawMessage("7"), Gen: 1}
}

func readParams(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func everythingElicit(t testing.TB) *model.Question {
	return question(model.AskElicitForm, "elicitation/create",
		readParams(t, "../../internal/schemaform/testdata/corpus/everything/elicit-trigger-elicitation-request.json"))
}

func demoElicit(t testing.TB) *model.Question {
	return question(model.AskElicitForm, "elicitation/create",
		readParams(t, "../../internal/schemaform/testdata/corpus/demo/elicit-elicit_form.json"))
}

func urlQuestion(url, message string) *model.Question {
	p, _ := json.Marshal(map[string]string{"mode": "url", "url": url, "message": message, "elicitationId": "e-42"})
	return question(model.AskElicitURL, "elicitation/create", p)
}

func samplingQuestion(t testing.TB) *model.Question {
	return question(model.AskSampling, "sampling/createMessage", readParams(t, "testdata/sampling_tools.json"))
}

// opener records the URLs it was asked to open.
type opener struct {
	mu   sync.Mutex
	urls []string
}

func (o *opener) open(url string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.urls = append(o.urls, url)
	return nil
}

func options(o *opener) Options {
	opts := Options{Styles: themes.New(themes.Dark()), Now: fixedNow,
		Roots: NewRootList([]model.Root{{URI: "file:///home/me/project", Name: "project"}})}
	if o != nil {
		opts.Open = o.open
	} else {
		opts.Open = func(string) error { return errors.New("no opener in tests") }
	}
	return opts
}

// feed sends keys (and the results of their Cmds) to an editor.
func feed(e Editor, msgs ...tea.Msg) {
	for _, m := range msgs {
		for _, r := range screentest.Drain(e.Update(m)) {
			e.Update(r)
		}
	}
}

func keys(names ...string) []tea.Msg { return screentest.Keys(names...) }

func TestElicitAcceptDeclineCancel(t *testing.T) {
	e := New(everythingElicit(t), options(nil))
	feed(e, keys("ctrl+s")...)
	if _, done := e.Done(); done {
		t.Fatal("accepted without the required name")
	}
	feed(e, screentest.Type("Ada")...)
	feed(e, keys("ctrl+s")...)
	out, done := e.Done()
	if !done || !strings.Contains(string(out.Answer), `"action": "accept"`) || !strings.Contains(string(out.Answer), `"name": "Ada"`) {
		t.Fatalf("%v %s", done, out.Answer)
	}
	q := everythingElicit(t)
	for _, c := range []struct{ key, action string }{{"d", "decline"}, {"c", "cancel"}} {
		e := New(q, options(nil))
		feed(e, keys("ctrl+x", c.key)...)
		out, done := e.Done()
		if !done || string(out.Answer) != "{\n  \"action\": \""+c.action+"\"\n}" {
			t.Errorf("%s: %s", c.action, out.Answer)
		}
	}
	e = New(q, options(nil))
	feed(e, keys("esc")...)
	if out, done := e.Done(); !done || !out.Closed {
		t.Error("esc does not close")
	}
}

func TestURLNeverOpensWithoutConfirmation(t *testing.T) {
	o := &opener{}
	e := New(urlQuestion("https://example.com/connect", "Connect your example.com account."), options(o))
	feed(e, keys("o", "n")...)
	if len(o.urls) != 0 {
		t.Fatalf("opened %v", o.urls)
	}
	feed(e, keys("o", "y")...)
	if len(o.urls) != 1 || o.urls[0] != "https://example.com/connect" {
		t.Fatalf("opened %v", o.urls)
	}
	feed(e, keys("a")...)
	if out, done := e.Done(); !done || !strings.Contains(string(out.Answer), "accept") {
		t.Fatalf("%s", out.Answer)
	}
	// Only web addresses are handed to the opener.
	o2 := &opener{}
	e = New(urlQuestion("javascript:alert(1)", "click"), options(o2))
	feed(e, keys("o", "y")...)
	if len(o2.urls) != 0 {
		t.Errorf("opened %v", o2.urls)
	}
	// The one URL-opening policy (the OAuth flow's too): https, or http
	// to this machine; plain http elsewhere, file: and data: are not
	// opened, and the note says why.
	for raw, opens := range map[string]bool{
		"http://example.com/login":       false,
		"file:///etc/passwd":             false,
		"data:text/html,<b>x</b>":        false,
		"http://127.0.0.1:8123/callback": true,
		"https://example.com/ok":         true,
	} {
		o3 := &opener{}
		e = New(urlQuestion(raw, "m"), options(o3))
		feed(e, keys("o")...)
		if !opens && !strings.Contains(strings.Join(e.View(100, 30), "\n"), "not opened") {
			t.Errorf("%s: the screen does not say it was not opened", raw)
		}
		feed(e, keys("y")...) // confirms, when the URL was offered
		if got := len(o3.urls) == 1; got != opens {
			t.Errorf("%s: opened %v, want opened=%v", raw, o3.urls, opens)
		}
	}
	// Copy goes to the clipboard through OSC 52 (a Cmd).
	e = New(urlQuestion("https://example.com/x", "m"), options(o2))
	if cmd := e.Update(screentest.Key("y")); cmd == nil {
		t.Error("copy returned no Cmd")
	}
}

func TestCheckURL(t *testing.T) {
	for _, c := range []struct {
		url, msg, domain string
		warn             []string
	}{
		{"https://example.com/connect", "Open example.com", "example.com", nil},
		{"https://accounts.example.co.uk/x", "", "example.co.uk", nil},
		{"http://example.com", "", "example.com", []string{"plain http"}},
		{"https://xn--pypal-4ve.com/login", "Log in to paypal.com", "pаypal.com", []string{"punycode", "mentions “paypal.com”"}},
		{"https://paypal.com@evil.example/", "", "evil.example", []string{"user name"}},
		{"https://10.0.0.1:8443/", "", "10.0.0.1", []string{"bare IP", "unusual port"}},
		{"https://good.example/a", "Open https://other.example/b to continue", "good.example", []string{"mentions “other.example”"}},
		{"not a url", "", "", []string{"not a valid web address"}},
		{"https://münchen.example/", "", "münchen.example", []string{"non-ASCII"}},
	} {
		got := CheckURL(c.url, c.msg)
		if got.Domain != c.domain {
			t.Errorf("%s: domain %q", c.url, got.Domain)
		}
		if len(got.Warnings) != len(c.warn) {
			t.Errorf("%s: warnings %q", c.url, got.Warnings)
			continue
		}
		for i, w := range c.warn {
			if !strings.Contains(got.Warnings[i], w) {
				t.Errorf("%s: warning %q lacks %q", c.url, got.Warnings[i], w)
			}
		}
	}
	if d, ok := punyDecode("mnchen-3ya"); !ok || d != "münchen" {
		t.Errorf("punycode %q %v", d, ok)
	}
}

func TestSamplingTextReply(t *testing.T) {
	e := New(samplingQuestion(t), options(nil))
	feed(e, keys("ctrl+s")...)
	if _, done := e.Done(); done {
		t.Fatal("sent an empty reply")
	}
	feed(e, screentest.Type("It is sunny.")...)
	feed(e, keys("tab", "ctrl+u")...) // settings: model name
	feed(e, screentest.Type("human-1")...)
	feed(e, keys("down", "right", "ctrl+s")...) // stop reason: stopSequence
	out, done := e.Done()
	if !done {
		t.Fatal("not sent")
	}
	var res struct {
		Role, Model, StopReason string
		Content                 struct{ Type, Text string }
	}
	if err := json.Unmarshal(out.Answer, &res); err != nil {
		t.Fatal(err)
	}
	if res.Role != "assistant" || res.Model != "human-1" || res.StopReason != "stopSequence" || res.Content.Text != "It is sunny." {
		t.Errorf("%s", out.Answer)
	}
}

func TestSamplingToolUse(t *testing.T) {
	e := New(samplingQuestion(t), options(nil))
	feed(e, keys("ctrl+t", "tab", "down", "down", "down", "right")...) // tool: get_time
	feed(e, keys("tab", "tab")...)                                     // back to the reply
	feed(e, keys("ctrl+d")...)                                         // clear the default zone
	feed(e, screentest.Type("Europe/Lisbon")...)
	feed(e, keys("ctrl+s")...)
	out, done := e.Done()
	want := `{"role":"assistant","content":[{"id":"mcptui_call_2","input":{"timezone":"Europe/Lisbon"},"name":"get_time","type":"tool_use"}],"model":"mcptui-human","stopReason":"toolUse"}`
	if !done || string(out.Answer) != want {
		t.Fatalf("%v\n%s\n%s", done, out.Answer, want)
	}
	// Raw JSON is always there, and checked.
	e = New(samplingQuestion(t), options(nil))
	feed(e, keys("ctrl+r")...)
	s := e.(*Sampling)
	s.rawTA.SetValue(`{"role":"assistant","content":{"type":"text","text":"hi"}}`)
	feed(e, keys("ctrl+s")...)
	if _, done := e.Done(); done || !strings.Contains(s.err, "model") {
		t.Fatalf("err %q", s.err)
	}
	s.rawTA.SetValue(`{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}`)
	feed(e, keys("ctrl+s")...)
	if out, done := e.Done(); !done || string(out.Answer) != `{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}` {
		t.Fatalf("%s", out.Answer)
	}
	e = New(samplingQuestion(t), options(nil))
	feed(e, keys("ctrl+x", "y")...)
	if out, _ := e.Done(); out.Error == nil || out.Error.Code != -1 {
		t.Errorf("reject %+v", out)
	}
}

func TestRootsEditor(t *testing.T) {
	opts := options(nil)
	e := New(question(model.AskRoots, "roots/list", []byte("{}")), opts)
	feed(e, keys("a")...)
	feed(e, keys("ctrl+u")...)
	feed(e, screentest.Type("/srv/data")...)
	feed(e, keys("tab")...)
	feed(e, screentest.Type("data")...)
	feed(e, keys("enter", "up", "d", "ctrl+s")...)
	out, done := e.Done()
	if !done || string(out.Answer) != "{\n  \"roots\": [\n    {\n      \"uri\": \"file:///srv/data\",\n      \"name\": \"data\"\n    }\n  ]\n}" {
		t.Fatalf("%s", out.Answer)
	}
	if !e.(*Roots).Changed || len(opts.Roots.Get()) != 1 {
		t.Errorf("changed %v, roots %v", e.(*Roots).Changed, opts.Roots.Get())
	}
	e = New(question(model.AskRoots, "roots/list", []byte("{}")), opts)
	feed(e, keys("a", "ctrl+u")...)
	feed(e, screentest.Type("relative/path")...)
	feed(e, keys("enter")...)
	if !strings.Contains(strings.Join(e.View(80, 10), "\n"), "file:// URI") {
		t.Error("a relative path was accepted")
	}
}

func TestHostileSamplingIsEscaped(t *testing.T) {
	e := New(samplingQuestion(t), options(nil))
	for _, l := range e.View(100, 40) {
		if strings.Contains(l, "\u202e") || strings.Contains(l, "\x07") || strings.Contains(ansi.Strip(l), "\x1b") {
			t.Fatalf("raw control in %q", l)
		}
	}
}

// host draws an editor in a box, as the inspector's overlay does.
type host struct {
	e    Editor
	w, h int
}

func (h *host) Init() tea.Cmd { return nil }
func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		h.w, h.h = s.Width, s.Height
		return h, nil
	}
	return h, h.e.Update(msg)
}
func (h *host) View() tea.View {
	if h.w == 0 {
		return tea.NewView("")
	}
	title := h.e.Title()
	if out, done := h.e.Done(); done {
		title = "decided: " + strings.ReplaceAll(string(out.Answer), "\n", "")
		if out.Error != nil {
			title = "rejected with " + strconv.Itoa(out.Error.Code)
		}
	}
	return tea.NewView(kit.Box(themes.New(themes.Dark()), h.w, h.h, title, true, h.e.View(h.w-2, h.h-2)))
}

func TestScreen(t *testing.T) {
	cases := []struct {
		name string
		q    func(t testing.TB) *model.Question
		msgs []tea.Msg
	}{
		{"elicit_everything", everythingElicit, nil},
		{"elicit_demo_errors", demoElicit, keys("ctrl+s")},
		{"elicit_decline_prompt", everythingElicit, keys("ctrl+x")},
		{"url_safe", func(testing.TB) *model.Question {
			return urlQuestion("https://example.com/mcptui-demo/connect", "Open this page to connect the demo server to your (imaginary) account.")
		}, nil},
		{"url_punycode_confirm", func(testing.TB) *model.Question {
			return urlQuestion("https://paypal.com@xn--pypal-4ve.com/login", "Please log in to paypal.com to continue.")
		}, keys("o")},
		{"sampling_text", samplingQuestion, screentest.Type("It is sunny and 21 °C in Lisbon.")},
		{"sampling_tool_use", samplingQuestion, keys("ctrl+t")},
		{"sampling_raw", samplingQuestion, append(screentest.Type("hi"), screentest.Key("ctrl+r"))},
		{"roots_add", func(testing.TB) *model.Question {
			return question(model.AskRoots, "roots/list", []byte("{}"))
		}, append(keys("a", "ctrl+u"), screentest.Type("/srv/data")...)},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{100, 30}, {140, 44}} {
			t.Run(c.name+"_"+strconv.Itoa(size[0])+"x"+strconv.Itoa(size[1]), func(t *testing.T) {
				mk := func() tea.Model { return &host{e: New(c.q(t), options(nil))} }
				styled, plain := screentest.Run(t, mk, size[0], size[1], c.msgs...)
				t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
				t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
			})
		}
	}
}
