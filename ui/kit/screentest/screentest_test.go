package screentest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

type doneMsg struct{}

// waiter stands for a model whose listen Cmd waits for an event no test
// sends.
type waiter struct{ event chan tea.Msg }

func (w *waiter) listen() tea.Cmd { return func() tea.Msg { return <-w.event } }
func (w *waiter) wait() tea.Msg   { return <-w.event }

// A Cmd that takes longer than a busy machine's patience (3 s, more than
// the 2 s after which Drain used to take a Cmd for a listener) still
// gives its message: which Cmds run does not depend on the clock.
func TestASlowCmdIsWaitedFor(t *testing.T) {
	slow := func() tea.Msg {
		<-time.After(3 * time.Second) // the Cmd's own work, not a wait of the test
		return doneMsg{}
	}
	got := Drain(tea.Batch(slow, func() tea.Msg { return "quick" }))
	if len(got) != 2 || got[0] != (doneMsg{}) || got[1] != "quick" {
		t.Fatalf("Drain gave %v, want the slow Cmd's message and then the quick one's", got)
	}
}

// A listener the test names is left out, not run (it would never end),
// whether it is a closure of the named method, inlined or not, or its
// method value; the Cmds beside it are run.
func TestNamedListenersAreLeftOut(t *testing.T) {
	w := &waiter{event: make(chan tea.Msg)}
	c := Cmds{Listeners: []string{"(*waiter).listen", "(*waiter).wait"}}
	got := c.Drain(tea.Batch(w.listen(), w.wait, func() tea.Msg { return doneMsg{} }))
	if len(got) != 1 || got[0] != (doneMsg{}) {
		t.Fatalf("Drain gave %v, want only the message of the Cmd that is no listener", got)
	}
	for _, name := range []string{FuncName(w.listen()), FuncName(w.wait)} {
		if !c.listener(name) {
			t.Errorf("%s is not taken for a listener", name)
		}
	}
	if c.listener(FuncName(func() tea.Msg { return nil })) {
		t.Error("a Cmd of the test is taken for a listener")
	}
}

// Run feeds a Cmd's message back however long the Cmd took and leaves
// out the named listeners.
func TestRunFeedsWhatCmdsGive(t *testing.T) {
	w := &waiter{event: make(chan tea.Msg)}
	mk := func() tea.Model { return &counter{w: w} }
	_, plain := Cmds{Listeners: []string{"(*waiter).listen"}}.Run(t, mk, 20, 3, Key("enter"), Key("enter"))
	if Trim(plain) != "count 4" {
		t.Fatalf("the screen shows %q, want count 4 (each enter and the message of its Cmd)", plain)
	}
}

// counter counts enters and the doneMsgs their Cmds give, and starts a
// listener on each.
type counter struct {
	w *waiter
	n int
}

func (c *counter) Init() tea.Cmd { return nil }
func (c *counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg:
		c.n++
		return c, tea.Batch(c.w.listen(), func() tea.Msg { return doneMsg{} })
	case doneMsg:
		c.n++
	}
	return c, nil
}
func (c *counter) View() tea.View { return tea.NewView("count " + itoa(c.n)) }

func itoa(n int) string { return string(rune('0' + n)) }
