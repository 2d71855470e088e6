// Package catalog is the inspector's catalog: the server's tools,
// resources, resource templates and prompts, each list filterable as you
// type and refreshed on list-changed notifications with a visible diff
// (added, removed, changed since the last listing); details with the
// description rendered from Markdown, annotations as badges and the
// schemas; tools called through a form generated from their inputSchema
// (package form) with per-call timeout, progress and reset-on-progress
// options, the arguments remembered per tool across runs (package
// argstore); results shown per content type (text wrapped, JSON pretty and
// folded, images and audio summed up, resource links and embedded resources
// openable, tool errors styled, structuredContent checked against the
// outputSchema), saved to files and copied as JSON (OSC 52); resources read,
// templates filled with completion/complete suggestions; prompts with
// argument completion and their messages by role; the log level (the
// inspector's picker, kit.LevelPicker) and a Log tab of the catalog's
// events (the server's log messages are the model's one book, pane 7's;
// run alone, the catalog keeps a model of its own and lists them there,
// coloured by level); subscriptions opened with a
// filter picked from the lists; and task-augmented tool calls (status,
// result, cancel).
//
// The catalog is a component: a host routes messages to Update and draws
// View into its layout. It talks to the server only through Options.Server
// (an internal/backend.Catalog), inside tea.Cmds: the live
// session implements it (internal/session's Session.Catalog), so the
// catalog's calls are ordinary requests of the session, and tests give it
// fakes.
// Every string that came from the server is drawn escaped.
package catalog
