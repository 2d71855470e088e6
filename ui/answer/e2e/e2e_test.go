package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/everything"
	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// server is the command line that starts the everything server (the test
// is skipped, saying why, when it cannot be had).
func server(t *testing.T) string {
	command, args := everything.Server(t)
	return strings.Join(append([]string{command}, args...), " ")
}

// TestFillEverythingElicitation: in the real binary, the catalog calls
// the everything server's trigger-elicitation-request; the server asks for
// a form; ctrl+a opens it; the person types a name, ticks the box, types an
// email, changes an enum and a multi-select, and accepts; the tool's reply
// lists exactly those answers.
func TestFillEverythingElicitation(t *testing.T) {
	tmuxtest.Require(t)
	srv := server(t)
	bin := tmuxtest.Build(t)
	command := fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor XDG_STATE_HOME=%s %s --no-bell -- %s",
		t.TempDir(), bin, srv)
	x := tmuxtest.Start(t, "e2e-answer", 150, 46, command)
	x.WaitFor("mcp-servers/everything", "● ready")
	// The everything server asks for the client's roots right after the
	// handshake; the default policy answers that (the configured roots,
	// none), so the only question left to answer below is the elicitation.
	x.WaitFor("auto roots=answer", "pending 0")

	x.Keys("E")
	x.WaitFor("6 Catalog — mcp-servers/everything", "trigger-elicitation-request")
	x.Keys("/")
	x.Text("trigger-elicitation-request")
	x.Keys("Enter")
	x.WaitFor("filter trigger-elicitation-request")
	x.Keys("Enter")
	x.WaitFor("Call tool trigger-elicitation-request")
	x.Keys("C-s")
	x.WaitFor("waiting for tools/call trigger-elicitation-request", "ctrl+a answers")

	x.Keys("C-a")
	x.WaitFor("Please provide inputs for the following fields:", "Your full, legal name")
	x.Text("Ada Lovelace")
	x.Keys("Down", "Space") // agree to the terms
	x.Keys("Down", "Down")  // past the default first line, to the email
	x.Text("ada@example.com")
	// Down to the integer, replace 42 with 7.
	x.Keys("Down", "Down", "Down", "C-u")
	x.Text("7")
	// The untitled single select: Monica → Rachel.
	x.Keys("Down", "Down", "Right")
	// The untitled multi-select: Piano besides Guitar.
	x.Keys("Down", "Down", "Down", "Space")
	x.WaitFor("Ada Lovelace", "ada@example.com", "‹ Rachel ›", "2 of 5 picked")
	x.Keys("C-s")
	// The catalog shares the screen with the log: z gives the result
	// the whole screen.
	x.WaitFor("tools/call trigger-elicitation-request ·")
	x.Keys("z")
	s := x.WaitFor("tools/call trigger-elicitation-request ·",
		"User provided the requested information!", "- Name: Ada Lovelace", "- Agreed to terms: true",
		"- Email: ada@example.com", "- Favorite Integer: 7", `"Piano"`)
	for _, want := range []string{`"untitledSingleSelectEnum": "Rachel"`, `"Guitar",`, `"Piano"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the tool's reply lacks %s:\n%s", want, s)
		}
	}

	// Unzoom, leave the catalog and quit: the program ends. One escape at a time:
	// several in one write read as alt+escape.
	x.Keys("z")
	x.WaitFor("1 Requests (")
	x.Keys("Escape")
	x.WaitFor("Call tool trigger-elicitation-request")
	x.Keys("Escape")
	x.WaitFor("filter trigger-elicitation-request")
	x.Keys("Escape")
	x.WaitGone("filter trigger-elicitation-request")
	x.Keys("Escape")
	x.WaitGone("6 Catalog")
	x.WaitFor("1 Requests (")
	x.Keys("q")
	x.WaitExit()
}
