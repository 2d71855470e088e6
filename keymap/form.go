package keymap

import "charm.land/bubbles/v2/key"

// Form keys work in a schema form (package ui/form): the catalog's
// arguments, an elicitation, a tool-use reply. Text fields take the Text
// keys; esc and ctrl+s are the host's.
type Form struct {
	// Prev and Next move between fields; PageUp and PageDown by ten.
	Prev, Next, PageUp, PageDown key.Binding
	// Choose acts on the row: the next field from a text one, opens an
	// enum's options, adds an item, picks an option.
	Choose key.Binding
	// Toggle flips a boolean or an option; Add adds an array item.
	Toggle, Add key.Binding
	// Left and Right step an enum, a union or a boolean.
	Left, Right key.Binding
	// Clear leaves the field out (or removes the item); Null sets a
	// nullable field to null; Now fills a date or time with today or now.
	Clear, Null, Now key.Binding
	// Raw switches between the form and its raw JSON.
	Raw key.Binding
	// Reset puts every field back to the schema's defaults (forgets the
	// remembered arguments).
	Reset key.Binding
}

func defaultForm() Form {
	return Form{
		Prev:     b(k("up", "shift+tab", "ctrl+p"), "↑", "previous field"),
		Next:     b(k("down", "tab", "ctrl+n"), "tab/↓", "next field"),
		PageUp:   b(k("pgup"), "pgup", "ten fields up"),
		PageDown: b(k("pgdown"), "pgdn", "ten fields down"),
		Choose:   b(k("enter"), "enter", "choose"),
		Toggle:   b(k("space", "x"), "space", "toggle"),
		Add:      b(k("+"), "+", "add item"),
		Left:     b(k("left", "h"), "←", "previous choice"),
		Right:    b(k("right", "l"), "→", "next choice"),
		Clear:    b(k("ctrl+d"), "ctrl+d", "leave out"),
		Null:     b(k("ctrl+o"), "ctrl+o", "null"),
		Now:      b(k("ctrl+t"), "ctrl+t", "today/now"),
		Raw:      b(k("ctrl+r"), "ctrl+r", "raw JSON"),
		Reset:    b(k("ctrl+z"), "ctrl+z", "schema defaults"),
	}
}

// Text keys edit a one-line text field (kit.LineEdit); printable keys
// type.
type Text struct {
	Left, Right, Home, End, Backspace, Delete key.Binding
	// KillBefore and KillAfter delete to the start or the end; KillWord
	// deletes the word before the cursor; WordLeft and WordRight move by
	// words.
	KillBefore, KillAfter, KillWord, WordLeft, WordRight key.Binding
}

func defaultText() Text {
	return Text{
		Left:       b(k("left", "ctrl+b"), "←", "left"),
		Right:      b(k("right", "ctrl+f"), "→", "right"),
		Home:       b(k("home", "ctrl+a"), "home", "line start"),
		End:        b(k("end", "ctrl+e"), "end", "line end"),
		Backspace:  b(k("backspace", "ctrl+h"), "backspace", "delete left"),
		Delete:     b(k("delete"), "delete", "delete right"),
		KillBefore: b(k("ctrl+u"), "ctrl+u", "delete to start"),
		KillAfter:  b(k("ctrl+k"), "ctrl+k", "delete to end"),
		KillWord:   b(k("ctrl+w", "alt+backspace"), "ctrl+w", "delete word"),
		WordLeft:   b(k("alt+left"), "alt+←", "word left"),
		WordRight:  b(k("alt+right"), "alt+→", "word right"),
	}
}
