package composer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/overlay"
)

// host is the root model as these tests play it: it opens the composer,
// gives it the keys, pastes and its messages, and draws its box's inside
// (the program's own screens are ui's tests, its goldens among them).
type host struct {
	keys   keymap.KeyMap
	st     *themes.Styles
	sess   *model.Session
	be     *uitest.Backend
	cat    backend.Catalog
	store  *argstore.Store
	c      *Composer[*host]
	shown  bool
	notice string
	w, h   int
}

var _ Host = (*host)(nil)

func (h *host) Keys() *keymap.KeyMap      { return &h.keys }
func (h *host) Styles() *themes.Styles    { return h.st }
func (h *host) Session() *model.Session   { return h.sess }
func (h *host) Backend() backend.Backend  { return h.be }
func (h *host) Catalog() backend.Catalog  { return h.cat }
func (h *host) ArgStore() *argstore.Store { return h.store }
func (h *host) Now() time.Time            { return uitest.At(30) }
func (h *host) Say(isErr bool, format string, args ...any) {
	h.notice = format
	if len(args) > 0 {
		h.notice = fmt.Sprintf(format, args...)
	}
}
func (h *host) CloseOverlay(o any) {
	if o == any(h.c) {
		h.shown = false
	}
}

// newHost is a host of w×h cells over the scripted session, with the
// catalog cat (nil: none), the store (nil: none) and keys (nil: the
// defaults); its composer is not open yet.
func newHost(t *testing.T, w, hgt int, cat backend.Catalog, store *argstore.Store, keys *keymap.KeyMap) *host {
	t.Helper()
	h := &host{keys: keymap.Default(), st: themes.New(themes.Choose("dark", true, false)), be: uitest.New(),
		sess: model.New(model.Config{Timeout: 30 * time.Second}), cat: cat, store: store, w: w, h: hgt}
	if keys != nil {
		h.keys = *keys
	}
	h.sess.ApplyAll(uitest.Session())
	return h
}

// open opens the composer as n does (made at the first opening, kept
// after) and runs the Cmd that lists the offer.
func (h *host) open(t *testing.T) {
	t.Helper()
	if h.c == nil {
		h.c = New[*host](h.sess.Config().Timeout)
	}
	cmd := h.c.Open(h)
	h.shown = true
	h.run(t, cmd)
}

// update gives the composer a message as the root does: a key or a paste
// while it is open, the offer whenever; a call's result is the notice.
func (h *host) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		h.notice = ""
		if h.shown {
			return h.c.Update(h, msg)
		}
	case tea.PasteMsg:
		if h.shown {
			return h.c.Update(h, msg)
		}
	case OfferMsg:
		h.c.OfferArrived(h, msg)
	case overlay.Done:
		h.notice = msg.What
		if msg.Err != nil {
			h.notice = fmt.Sprintf("%s failed: %v", msg.What, msg.Err)
		}
	}
	return nil
}

// press sends keys: single characters, or names like "enter", "ctrl+s".
func (h *host) press(keys ...string) tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range keys {
		cmds = append(cmds, h.update(keyMsg(k)))
	}
	return tea.Batch(cmds...)
}

// typeText sends each rune as a key press.
func (h *host) typeText(s string) {
	for _, r := range s {
		h.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// run executes a Cmd (and the Cmds of batches) and feeds the results
// back, one level deep.
func (h *host) run(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, h.run(t, c)...)
		}
		return out
	}
	h.update(msg)
	return []tea.Msg{msg}
}

// view is the inside of the composer's box as drawn (the root's box is
// two cells narrower and shorter than its screen's body; these tests use
// the whole screen's size).
func (h *host) view() string { return strings.Join(h.c.View(h, h.w-2, h.h-2), "\n") }

// screen is view without its styles.
func (h *host) screen() string { return ansi.Strip(h.view()) }

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// ctrl is ctrl and a letter; right and left arrow keys.
func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

var (
	right = tea.KeyPressMsg{Code: tea.KeyRight}
	left  = tea.KeyPressMsg{Code: tea.KeyLeft}
)

// server is a catalog offering a tool with a schema worth a form (and
// echo), a prompt, a resource and a resource template; the composer asks
// nothing else of it.
type server struct{ backend.Catalog }

func (server) ListTools(context.Context) ([]mcp.Tool, error) {
	var echo mcp.Tool
	_ = json.Unmarshal([]byte(`{"name":"echo","description":"Echoes **back**.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}`), &echo)
	return []mcp.Tool{forecastTool, echo}, nil
}
func (server) ListPrompts(context.Context) ([]mcp.Prompt, error) {
	return []mcp.Prompt{{Name: "greet", Arguments: []mcp.PromptArgument{
		{Name: "name", Description: "who to greet", Required: true}, {Name: "style"}}}}, nil
}
func (server) ListResources(context.Context) ([]mcp.Resource, error) {
	return []mcp.Resource{{URI: "demo://readme", Name: "readme"}}, nil
}
func (server) ListResourceTemplates(context.Context) ([]mcp.ResourceTemplate, error) {
	return []mcp.ResourceTemplate{{URITemplate: "demo://color/{name}", Name: "color"}}, nil
}
func (server) Info() backend.CatalogInfo {
	return backend.CatalogInfo{Version: mcp.Version20251125, Name: "composer", Key: "composer",
		Capabilities: mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}, Prompts: &mcp.ListChangedCapability{},
			Resources: &mcp.ResourcesCapability{}}}
}

// composeTest opens the composer over server (its offer listed), with the
// method field emptied.
func composeTest(t *testing.T, w, hgt int, store *argstore.Store, keys *keymap.KeyMap) (*host, *uitest.Backend) {
	t.Helper()
	h := newHost(t, w, hgt, server{}, store, keys)
	h.open(t)
	if h.c.offer == nil {
		t.Fatal("the composer has no offer")
	}
	h.c.method.SetValue("")
	return h, h.be
}

// pickTarget completes method, then picks target from its picker.
func pickTarget(t *testing.T, h *host, method, target string) {
	t.Helper()
	h.typeText(method)
	h.press("enter")
	h.typeText(target)
	h.press("enter")
	if h.c.args == nil {
		t.Fatalf("no arguments form for %s %s:\n%s", method, target, h.screen())
	}
}

func sentParams(t *testing.T, fb *uitest.Backend) string {
	t.Helper()
	c := fb.Calls()
	if len(c) != 1 || c[0].Method != "Call" {
		t.Fatalf("calls = %+v", c)
	}
	return string(c[0].Request.Params)
}

// openTest opens the composer with no catalog (no offer: what is typed is
// sent).
func openTest(t *testing.T, w, hgt int) (*host, *uitest.Backend) {
	t.Helper()
	h := newHost(t, w, hgt, nil, nil, nil)
	h.open(t)
	return h, h.be
}
