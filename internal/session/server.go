package session

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// serverInfo is what the server said of itself and how the version was
// chosen, for the server view.
func serverInfo(sess mcp.Session, neg mcp.Negotiation) model.ServerInfo {
	return model.ServerInfo{
		Title:        sess.Server.Title,
		Description:  sess.Server.Description,
		WebsiteURL:   sess.Server.WebsiteURL,
		Icons:        slices.Clone(sess.Server.Icons),
		Instructions: sess.Instructions,
		Capabilities: slices.Clone(sess.Capabilities.Raw),
		Allowed:      slices.Clone(neg.Allowed),
		Pinned:       len(neg.Allowed) == 1,
		Reason:       neg.Reason,
		Probes:       neg.Probes,
		Spawns:       neg.Spawns,
	}
}

// errNoLogging says why a level cannot be set on a server.
var errNoLogging = errors.New("the server declares no logging capability: logging/setLevel was not sent")

// startLogging asks a ready server for Config.LogLevel, so that its log
// messages show from the start: with logging/setLevel when it declares
// logging, on every request's _meta on 2026-07-28 (where a server sends no
// log message for a request without one). A server that declares no
// logging is left alone, and the model is told why.
func (s *Session) startLogging(g *generation, client *mcp.Client) {
	if s.cfg.LogLevel == "" {
		return
	}
	level := s.cfg.LogLevel
	// The outcome reaches the model either way (model.LogLevelSet).
	go func() { _ = s.setLevel(g.ctx, g, client, level) }()
}

// SetLogLevel asks the server for the log messages of level and above,
// on the current connection; the model hears of it (model.LogLevelSet).
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	g, client, err := s.current()
	if err != nil {
		return err
	}
	return s.setLevel(ctx, g, client, level)
}

// setLevel sets the level through mcp (which knows how each era takes
// it) and reports the level in effect.
func (s *Session) setLevel(ctx context.Context, g *generation, client *mcp.Client, level string) error {
	var err error
	if !mcp.Stateless(client.Version()) && client.Session().Capabilities.Logging == nil {
		err = errNoLogging
	} else if err = client.SetLogLevel(ctx, level); err != nil {
		err = fmt.Errorf("setting the log level to %s: %w", level, err)
	}
	ev := model.LogLevelSet{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, Level: client.Session().LogLevel}
	if err != nil {
		ev.Err = err.Error()
	}
	s.push(ev)
	return err
}

var _ backend.LogLeveler = (*Session)(nil)
