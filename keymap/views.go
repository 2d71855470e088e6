package keymap

import "charm.land/bubbles/v2/key"

// Log keys work in the log view (pane 7): the server's log messages.
type Log struct {
	// MoreSevere and LessSevere raise and lower the least severe level
	// shown (a filter of the view; the level asked of the server is
	// Global.LogLevel's).
	MoreSevere, LessSevere key.Binding
	// Open shows the message's traffic line; Follow follows the newest.
	Open, Follow key.Binding
	// SetLevel asks the server for the level chosen in the level picker.
	SetLevel key.Binding
}

// Server keys work in the server view (pane 8).
type Server struct {
	// Jump goes from the selected lint finding to its traffic line; Open
	// opens the handshake's answer (capabilities and all) in the viewer.
	Jump, Open key.Binding
}

func defaultLog() Log {
	return Log{
		MoreSevere: b(k(">", "."), ">", "fewer (more severe)"),
		LessSevere: b(k("<", ","), "<", "more (less severe)"),
		Open:       b(k("enter"), "enter", "its traffic line"),
		Follow:     b(k("f"), "f", "follow newest"),
		SetLevel:   b(k("enter"), "enter", "set this level"),
	}
}

func defaultServer() Server {
	return Server{
		Jump: b(k("enter"), "enter", "finding → traffic"),
		Open: b(k("o"), "o", "handshake JSON"),
	}
}
