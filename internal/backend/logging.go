package backend

import "context"

// LogLeveler is the optional part of a Backend that sets the server's log
// level (the log view's level key); the model hears of the level in effect
// as a model.LogLevelSet event. How the level reaches the server
// (logging/setLevel, or every request's _meta on 2026-07-28) is the
// backend's business.
type LogLeveler interface {
	SetLogLevel(ctx context.Context, level string) error
}
