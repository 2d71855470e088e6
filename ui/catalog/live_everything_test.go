package catalog

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/everything"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// everythingCommand is the everything server (skipped when it cannot be
// had).
func everythingCommand(t *testing.T) (string, []string) { return everything.Server(t) }

// everythingKeys answers the everything server's questions.
func everythingKeys(kind model.QuestionKind, _ int, q *model.Question) []tea.Msg {
	keys, typ := screentest.Keys, screentest.Type
	switch kind {
	case model.AskElicitForm:
		// name is the only required field; the rest keep their defaults,
		// and the boolean is ticked.
		return append(append(typ("Ada Lovelace"), keys("down", "space")...), keys("ctrl+s")...)
	case model.AskElicitURL:
		return keys("a")
	case model.AskSampling:
		return append(typ("A haiku from the human model"), keys("ctrl+s")...)
	case model.AskRoots:
		return keys("ctrl+s")
	}
	return nil
}

// TestLiveEverything exercises the everything server's tools, resources,
// templates and prompts through the catalog.
func TestLiveEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the everything server")
	}
	command, args := everythingCommand(t)
	answers := newAnswerers(everythingKeys)
	l := startLive(t, command, args, nil, nil, answers)
	l.waitFor("Tools 17", "Resources 7", "Templates 2", "Prompts 4", "2025-11-25")
	record := func(what, s string) { t.Logf("%-32s %s", what, s) }

	s := l.call("t", "echo", func() { l.typeIn("hello everything"); l.keys("ctrl+s") }, "item(s) ·", "Echo: hello everything")
	record("tool echo", l.lineOf(s, "Echo:"))
	s = l.call("t", "get-sum", func() { l.typeIn("2"); l.keys("tab"); l.typeIn("40"); l.keys("ctrl+s") }, "item(s) ·", "42")
	record("tool get-sum", l.lineOf(s, "42"))
	s = l.call("t", "get-env", func() { l.keys("ctrl+s") }, "item(s) ·")
	record("tool get-env", l.lineOf(s, "1 text"))
	s = l.call("t", "get-tiny-image", func() { l.keys("ctrl+s") }, "item(s) ·", "png")
	record("tool get-tiny-image", l.lineOf(s, "image,"))
	s = l.call("t", "get-annotated-message", func() { l.keys("right", "down", "space", "ctrl+s") }, "item(s) ·", "priority")
	record("tool get-annotated-message", l.lineOf(s, "priority"))
	s = l.call("t", "get-resource-links", func() {
		l.keys("ctrl+s")
		l.waitFor("resource link · enter reads it")
		l.keys("tab", "enter")
	}, "(2 deep: esc goes back)", "resources/read demo://")
	record("tool get-resource-links → read", l.lineOf(s, "resources/read"))
	l.keys("esc")
	s = l.call("t", "get-resource-reference", func() { l.keys("ctrl+s") }, "item(s) ·", "embedded resource")
	record("tool get-resource-reference", l.lineOf(s, "embedded resource"))
	s = l.call("t", "get-structured-content", func() { l.keys("right", "right", "ctrl+s") }, "item(s) ·", "outputSchema")
	record("tool get-structured-content", l.lineOf(s, "outputSchema"))
	s = l.call("t", "trigger-long-running-operation", func() {
		l.keys("ctrl+u")
		l.typeIn("2")
		l.keys("down", "ctrl+u")
		l.typeIn("4")
		l.keys("ctrl+s")
	}, "item(s) ·", "Long running operation completed")
	record("tool trigger-long-running-op", l.lineOf(s, "completed"))
	s = l.call("t", "get-roots-list", func() { l.keys("ctrl+s") }, "item(s) ·", "file:///home/me/project")
	record("tool get-roots-list", l.lineOf(s, "file:///home/me/project"))
	s = l.call("t", "trigger-elicitation-request", func() { l.keys("ctrl+s") }, "item(s) ·", "Ada Lovelace")
	record("tool trigger-elicitation-request", l.lineOf(s, "Ada Lovelace"))
	s = l.call("t", "trigger-url-elicitation", func() { l.typeIn("https://example.com/login"); l.keys("ctrl+s") }, "item(s) ·", "accept")
	record("tool trigger-url-elicitation", l.lineOf(s, "accept"))
	s = l.call("t", "trigger-sampling-request", func() { l.typeIn("Write a haiku"); l.keys("ctrl+s") }, "item(s) ·", "A haiku from the human model")
	record("tool trigger-sampling-request", l.lineOf(s, "haiku from"))
	s = l.call("t", "simulate-research-query", func() { l.typeIn("MCP inspectors"); l.keys("ctrl+s") }, "task ", "item(s) ·")
	record("tool simulate-research-query", l.lineOf(s, "task "))
	s = l.call("t", "gzip-file-as-resource", func() {
		l.keys("down", "ctrl+u")
		l.typeIn("data:text/plain;base64,aGVsbG8gZXZlcnl0aGluZw==")
		l.keys("ctrl+s")
	}, "item(s) ·")
	record("tool gzip-file-as-resource", l.lineOf(s, "1 "))
	l.keys("R")
	s = l.waitFor("+ demo://resource/session/")
	record("  → resources list_changed", l.lineOf(s, "since the last listing"))

	// Logging and subscriptions.
	l.keys("L", "enter")
	l.waitFor("log level set to debug")
	l.call("t", "toggle-simulated-logging", func() { l.keys("ctrl+s") }, "item(s) ·")
	l.keys("g")
	s = l.waitFor("the catalog's events", " log   ")
	record("tool toggle-simulated-logging", l.lineOf(s, " log   "))
	l.call("t", "toggle-simulated-logging", func() { l.keys("ctrl+s") }, "item(s) ·")
	l.keys("s")
	l.waitFor("updates of demo://resource/static/document/")
	l.keys("down", "down", "down", "space", "enter")
	l.waitFor("1 subscription(s)")
	l.call("t", "toggle-subscriber-updates", func() { l.keys("ctrl+s") }, "item(s) ·")
	l.keys("g")
	s = l.waitFor("resource updated: demo://")
	record("tool toggle-subscriber-updates", l.lineOf(s, "resource updated"))
	l.call("t", "toggle-subscriber-updates", func() { l.keys("ctrl+s") }, "item(s) ·")

	// Resources, templates, prompts.
	s = l.call("R", "architecture.md", nil, "resources/read", "text/markdown")
	record("resource architecture.md", l.lineOf(s, "text/markdown"))
	s = l.call("T", "demo://resource/dynamic/text/{resourceId}", func() {
		l.waitFor("no suggestions")
		l.typeIn("1")
		l.waitFor("suggestions: 1")
		l.keys("enter", "ctrl+s")
	}, "resources/read demo://resource/dynamic/text/1")
	record("template text (completed)", l.lineOf(s, "resources/read"))
	s = l.call("T", "demo://resource/dynamic/blob/{resourceId}", func() { l.typeIn("2"); l.keys("ctrl+s") }, "resources/read demo://resource/dynamic/blob/2", "w saves it")
	record("template blob", l.lineOf(s, "w saves it"))
	s = l.call("p", "simple-prompt", func() { l.keys("ctrl+s") }, "prompts/get simple-prompt ·", "user ·")
	record("prompt simple-prompt", l.lineOf(s, "user ·"))
	s = l.call("p", "args-prompt", func() { l.typeIn("Lisbon"); l.keys("ctrl+s") }, "prompts/get args-prompt ·", "Lisbon")
	record("prompt args-prompt", l.lineOf(s, "Lisbon"))
	s = l.call("p", "completable-prompt", func() {
		l.typeIn("E")
		l.waitFor("suggestions: Engineering")
		l.keys("enter", "tab")
		l.typeIn("Ada")
		l.keys("ctrl+s")
	}, "prompts/get completable-prompt ·", "Engineering")
	record("prompt completable-prompt", l.lineOf(s, "Engineering"))
	s = l.call("p", "resource-prompt", func() { l.typeIn("Text"); l.keys("tab"); l.typeIn("1"); l.keys("ctrl+s") }, "prompts/get resource-prompt ·", "embedded resource")
	record("prompt resource-prompt", l.lineOf(s, "embedded resource"))

	for _, a := range answers.seen {
		t.Logf("answered: %s", a)
	}
}
