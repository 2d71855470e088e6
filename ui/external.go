package ui

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// The steps of editing an answer in $EDITOR, each a message so that the
// file I/O happens in Cmds and never in Update.
type (
	// editorFileMsg: the draft is written to path.
	editorFileMsg struct {
		path string
		err  error
	}
	// editorExitMsg: the editor process ended.
	editorExitMsg struct {
		path string
		err  error
	}
	// editorTextMsg: the edited text was read back.
	editorTextMsg struct {
		text string
		err  error
	}
)

// editorCommand is the command line of the external editor: Options.Editor,
// else $VISUAL, else $EDITOR, else vi.
func (m *Model) editorCommand() []string {
	for _, s := range []string{m.opts.Editor, os.Getenv("VISUAL"), os.Getenv("EDITOR")} {
		if f := strings.Fields(s); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// writeDraft writes the editor's text to a temporary file.
func writeDraft(text string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "mcptui-answer-*.json")
		if err != nil {
			return editorFileMsg{err: fmt.Errorf("creating the draft file: %w", err)}
		}
		_, werr := f.WriteString(text)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			_ = os.Remove(f.Name())
			return editorFileMsg{err: fmt.Errorf("writing the draft file: %w", firstErr(werr, cerr))}
		}
		return editorFileMsg{path: f.Name()}
	}
}

// readDraft reads the edited file back and removes it.
func readDraft(path string) tea.Cmd {
	return func() tea.Msg {
		b, err := os.ReadFile(path)
		_ = os.Remove(path)
		if err != nil {
			return editorTextMsg{err: fmt.Errorf("reading the draft file: %w", err)}
		}
		return editorTextMsg{text: string(b)}
	}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// externalMsg advances the $EDITOR round trip.
func (m *Model) externalMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case editorFileMsg:
		if msg.err != nil {
			m.say(true, "%v", msg.err)
			return nil
		}
		argv := append(m.editorCommand(), msg.path)
		path := msg.path
		return tea.ExecProcess(exec.Command(argv[0], argv[1:]...), func(err error) tea.Msg {
			return editorExitMsg{path: path, err: err}
		})
	case editorExitMsg:
		if msg.err != nil {
			m.say(true, "the editor failed: %v", msg.err)
		}
		return readDraft(msg.path)
	case editorTextMsg:
		if msg.err != nil {
			m.say(true, "%v", msg.err)
			return nil
		}
		if m.editor != nil {
			m.editor.ta.SetValue(strings.TrimRight(msg.text, "\n"))
			m.show(m.editor)
		}
	}
	return nil
}
