package keymap

import "charm.land/bubbles/v2/key"

// Composer keys work in the new-request and new-subscription dialogs, the
// reject dialog and the version picker, besides Overlay's.
type Composer struct {
	// PrevField goes back a field; Toggle flips a check box.
	PrevField, Toggle key.Binding
	// Choose is enter where it picks or sends (the version, a rejection,
	// an URI added to a subscription).
	Choose key.Binding
	// Next, Prev and Accept pick from the composer's suggestions (methods
	// the server offers, its tools, prompts, resources): arrows and enter
	// only, so that letters stay typed.
	Next, Prev, Accept key.Binding
}

func defaultComposer() Composer {
	return Composer{
		PrevField: b(k("shift+tab"), "shift+tab", "previous field"),
		Toggle:    b(k("space", "x"), "space", "toggle"),
		Choose:    b(k("enter"), "enter", "choose"),
		Next:      b(k("down"), "↓", "next suggestion"),
		Prev:      b(k("up"), "↑", "previous suggestion"),
		Accept:    b(k("enter"), "enter", "take suggestion"),
	}
}

// Timeline keys step through a recording (mcptui replay). They are
// control keys, so that they never reach a text field of the inspector.
type Timeline struct {
	Next, Prev, NextSend, PrevSend, Start, End key.Binding
}

func defaultTimeline() Timeline {
	return Timeline{
		Next:     b(k("ctrl+n"), "^n", "next line"),
		Prev:     b(k("ctrl+p"), "^p", "previous line"),
		NextSend: b(k("ctrl+f"), "^f", "next sent"),
		PrevSend: b(k("ctrl+b"), "^b", "previous sent"),
		Start:    b(k("ctrl+home"), "^home", "start"),
		End:      b(k("ctrl+end"), "^end", "end"),
	}
}
