// Package dialog holds dialogs of the inspector kept out of the ui root
// package: each is an overlay of the root model (ui.Overlay), generic over
// its host H and constrained by Host, which *ui.Model implements; each
// holds its state, keys and drawing in one file.
//
//	version.go    V: the protocol version to reconnect at
//	reject.go     x on a question: rejecting it (decline or cancel, or an error)
//	policies.go   p in pane 2: the answer policies
//	listen.go     s in pane 4 and in the catalog: a new subscription
package dialog

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/overlay"
)

// Host is the root model as a dialog sees it: an overlay's host that
// opens a dialog and sends the answers and rejections of the server's
// questions (marking them once sent).
type Host interface {
	overlay.Host
	// Show opens o, an overlay of the host, in place of what is open.
	Show(o any)
	// AnswerQuestion sends ans to q and marks it st once it is sent.
	AnswerQuestion(q *model.Question, ans json.RawMessage, st model.QuestionState) tea.Cmd
	// RejectQuestion sends e to q and marks it rejected once it is sent.
	RejectQuestion(q *model.Question, e model.RPCError) tea.Cmd
	// Roots are the roots the client offers, as the person edited them.
	Roots() []model.Root
}

// questionID names q as the pending pane does: its request id, or its
// round of an input-required exchange.
func questionID(q *model.Question) string {
	if q.RequestID != nil {
		return "#" + string(q.RequestID)
	}
	return fmt.Sprintf("round %d", q.Round)
}
