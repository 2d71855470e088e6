package keymap

import "charm.land/bubbles/v2/key"

// Catalog keys work in pane 6 (package ui/catalog): its lists, the call
// in progress, tasks and its small dialogs. Movement is List's (less g/G,
// which pick the log tab there: Top and Bottom are its own).
type Catalog struct {
	// Back clears the filter, then goes back one level (never cancels).
	Back key.Binding
	// NextList and PrevList move between the tabs; Tools .. Log jump
	// (Skills only where the server declares the Skills extension).
	NextList, PrevList                   key.Binding
	Tools, Resources, Templates, Prompts key.Binding
	Skills, Log                          key.Binding
	// Level sets the server's log level; Subscribe opens the subscribe
	// dialog; Roots the client's roots; Relist lists everything again.
	Level, Subscribe, Roots, Relist key.Binding
	// Filter filters the list; Open calls, reads or gets the selected
	// entry; Copy copies it as JSON; App opens a tool's MCP App in the
	// browser.
	Filter, Open, Copy, App key.Binding
	// Top and Bottom go to the list's ends; DetailDown and DetailUp scroll
	// the details beside it.
	Top, Bottom, DetailDown, DetailUp key.Binding
	// Answer answers the server's newest question from the catalog.
	Answer key.Binding
	// Cancel cancels the call (or task) shown; Poll asks a task's state
	// now; Fetch fetches a finished task's result.
	Cancel, Poll, Fetch key.Binding
	// Send sends the form; Options switches to the call options (timeout,
	// progress, task); Suggest and SuggestBack pick a completion; Take
	// takes it.
	Send, Options, Suggest, SuggestBack, Take key.Binding
	// Choose picks in a dialog (the level, a path); Toggle marks a row.
	Choose, Toggle key.Binding
}

// Result keys work on a result (a tool's content, a resource, a prompt).
type Result struct {
	Back, NextItem, PrevItem, Open key.Binding
	// FoldAll and UnfoldAll act on the JSON item under the cursor.
	FoldAll, UnfoldAll key.Binding
	// Copy copies the line's item, CopyAll the whole result; Save and
	// SaveAll write them to a file.
	Copy, CopyAll, Save, SaveAll key.Binding
}

func defaultCatalog() Catalog {
	return Catalog{
		Back:        b(k("esc"), "esc", "back"),
		NextList:    b(k("right", "]", "l"), "→", "next list"),
		PrevList:    b(k("left", "[", "h"), "←", "previous list"),
		Tools:       b(k("t"), "t", "tools"),
		Resources:   b(k("R"), "R", "resources"),
		Templates:   b(k("T"), "T", "templates"),
		Prompts:     b(k("p"), "p", "prompts"),
		Skills:      b(k("S"), "S", "skills"),
		Log:         b(k("g"), "g", "log"),
		Level:       b(k("L"), "L", "log level"),
		Subscribe:   b(k("s"), "s", "subscribe"),
		Roots:       b(k("o"), "o", "roots"),
		Relist:      b(k("u", "ctrl+l"), "u", "list again"),
		Filter:      b(k("/"), "/", "filter"),
		Open:        b(k("enter"), "enter", "call/read/get"),
		Copy:        b(k("y"), "y", "copy JSON"),
		App:         b(k("A"), "A", "open its App"),
		Top:         b(k("home"), "home", "top"),
		Bottom:      b(k("end", "G"), "G", "bottom"),
		DetailDown:  b(k("J", "ctrl+d"), "J", "details down"),
		DetailUp:    b(k("K", "ctrl+u"), "K", "details up"),
		Answer:      b(k("ctrl+a"), "ctrl+a", "answer"),
		Cancel:      b(k("c", "x"), "c", "cancel"),
		Poll:        b(k("g"), "g", "poll now"),
		Fetch:       b(k("enter"), "enter", "fetch result"),
		Send:        b(k("ctrl+s"), "ctrl+s", "send"),
		Options:     b(k("ctrl+g"), "ctrl+g", "call options"),
		Suggest:     b(k("alt+down"), "alt+↓", "next suggestion"),
		SuggestBack: b(k("alt+up"), "alt+↑", "previous suggestion"),
		Take:        b(k("enter"), "enter", "take suggestion"),
		Choose:      b(k("enter"), "enter", "choose"),
		Toggle:      b(k("space", "x"), "space", "pick"),
	}
}

func defaultResult() Result {
	return Result{
		Back:      b(k("esc", "backspace"), "esc", "back"),
		NextItem:  b(k("tab"), "tab", "next item"),
		PrevItem:  b(k("shift+tab"), "shift+tab", "previous item"),
		Open:      b(k("enter", "o"), "enter", "fold/open"),
		FoldAll:   b(k("C"), "C", "fold all"),
		UnfoldAll: b(k("O"), "O", "unfold all"),
		Copy:      b(k("y"), "y", "copy item"),
		CopyAll:   b(k("Y"), "Y", "copy all"),
		Save:      b(k("w"), "w", "save item"),
		SaveAll:   b(k("W"), "W", "save all"),
	}
}
