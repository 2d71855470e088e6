package keymap

import "charm.land/bubbles/v2/key"

// Answer keys work in the answer editors (package ui/answer): the
// sampling reply, the elicitation form and URL, the roots list.
type Answer struct {
	// Send sends the answer (accepts an elicitation); Close closes without
	// answering (the question waits).
	Send, Close key.Binding
	// Reject rejects (a sampling request's error, an elicitation's decline
	// or cancel); Confirm confirms the rejection asked about.
	Reject, Confirm key.Binding
	// Raw switches to the answer's raw JSON; NextPart and PrevPart move
	// between the editor's parts; ToolUse switches a sampling reply
	// between text and tool use.
	Raw, NextPart, PrevPart, ToolUse key.Binding
	// Scroll keys move the conversation.
	ScrollUp, ScrollDown, PageUp, PageDown key.Binding
	// Step changes a setting (stop reason, tool choice).
	StepBack, Step key.Binding
	// OpenURL opens an elicitation's URL (after asking); CopyURL copies
	// it; Accept, Decline and Cancel answer it.
	OpenURL, CopyURL, Accept, Decline, Cancel key.Binding
	// Add and Remove edit the roots list.
	Add, Remove key.Binding
}

func defaultAnswer() Answer {
	return Answer{
		Send:       b(k("ctrl+s"), "ctrl+s", "send"),
		Close:      b(k("esc"), "esc", "close"),
		Reject:     b(k("ctrl+x"), "ctrl+x", "reject"),
		Confirm:    b(k("y"), "y", "yes"),
		Raw:        b(k("ctrl+r"), "ctrl+r", "raw JSON"),
		NextPart:   b(k("tab"), "tab", "next part"),
		PrevPart:   b(k("shift+tab"), "shift+tab", "previous part"),
		ToolUse:    b(k("ctrl+t"), "ctrl+t", "text/tool use"),
		ScrollUp:   b(k("up", "k"), "↑/k", "up"),
		ScrollDown: b(k("down", "j"), "↓/j", "down"),
		PageUp:     b(k("pgup"), "pgup", "page up"),
		PageDown:   b(k("pgdown"), "pgdn", "page down"),
		StepBack:   b(k("left"), "←", "previous value"),
		Step:       b(k("right", "space"), "→", "next value"),
		OpenURL:    b(k("o"), "o", "open (asks first)"),
		CopyURL:    b(k("y"), "y", "copy URL"),
		Accept:     b(k("a", "ctrl+s"), "a", "accept"),
		Decline:    b(k("d"), "d", "decline"),
		Cancel:     b(k("c"), "c", "cancel"),
		Add:        b(k("a", "+"), "a", "add"),
		Remove:     b(k("d", "delete", "x"), "d", "remove"),
	}
}
