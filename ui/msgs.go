package ui

import (
	"time"

	"github.com/mcptui/mcptui/model"
)

// eventsMsg carries a batch from Backend.Next.
type eventsMsg struct {
	events []model.Event
	err    error
}

// tickMsg redraws ages, timers and indeterminate bars.
type tickMsg struct{}

// actionMsg is the result of a Backend call.
type actionMsg struct {
	what string
	err  error
	// after is applied to the session when the action succeeded.
	after []model.Event
	// quit ends the program once the action is done.
	quit bool
}

// EventsMsg lets a test or an embedding program feed events directly, as
// if Backend.Next had returned them. They are folded after every event
// handed over before them (a backlog waiting included).
type EventsMsg struct {
	Events []model.Event
	// Budgeted folds them within Options.FoldBudget, a slice at a time
	// with input handled between slices, as a backend batch is (fold.go);
	// Backlog tells how many wait. Without it, or without a budget, they
	// are folded at once when no backlog waits.
	Budgeted bool
}

// clock returns the time to draw with.
type clock func() time.Time

// AlertMsg is a problem of mcptui's own that the person must see until it
// is gone (a recording that cannot be written): the status line shows it,
// escaped, whenever no newer notice does.
type AlertMsg struct {
	Text string
}
