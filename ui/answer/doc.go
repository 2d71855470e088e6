// Package answer holds the editors a person answers the server's questions
// with, one per kind of question, each a component a host (the inspector's
// pending-questions pane) opens over a model.Question:
//
//   - Elicit: a form elicitation, as a form generated from requestedSchema
//     (every field kind the spec allows, defaults filled in), then accept,
//     decline or cancel.
//   - URL: a URL elicitation, with the domain shown prominently, warnings
//     for punycode, look-alike characters, a link whose text names another
//     host, credentials in the URL or plain http; never opened
//     automatically: copied, or opened with the system opener after a
//     confirmation; then accept, decline or cancel.
//   - Sampling: the conversation as it was sent (roles, text, images, audio,
//     tool uses and results), the system prompt, model preferences,
//     maxTokens and the tools offered; the person writes the reply text or
//     a tool use, chooses the model name and stop reason; raw JSON always
//     available.
//   - Roots: the list of roots offered, edited (add, remove) before it is
//     returned; a change is reported so the host can send
//     notifications/roots/list_changed (initialize era).
//
// Every editor draws into a given width and height, takes keys through
// Update, and reports an Outcome once the person has decided. Every string
// from the server is drawn escaped.
package answer
