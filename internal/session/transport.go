package session

import (
	"net/http"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/model"
)

// transportName is what the header calls an HTTP transport: "HTTP" for
// Streamable HTTP, "HTTP+SSE" for 2024-11-05's, "" for a process.
func transportName(m httpconn.Mode) string {
	switch m {
	case httpconn.Streamable:
		return "HTTP"
	case httpconn.SSE:
		return "HTTP+SSE"
	}
	return ""
}

// activityReporter is what an OAuth transport (oauth.Transport) offers to
// say that an authorization runs.
type activityReporter interface {
	SetOnActivity(func(oauth.Activity))
}

// reportAuthorizing makes the authorizations that run on the connection
// from now on (a refresh, more scopes, a new login: the first one ran
// before the screen opened) model.Authorizing events of generation g, so
// that the inspector says "authorizing…" and what it waits for.
func (s *Session) reportAuthorizing(g *generation, client *http.Client) {
	if client == nil {
		return
	}
	r, ok := client.Transport.(activityReporter)
	if !ok {
		return
	}
	r.SetOnActivity(func(a oauth.Activity) {
		ev := model.Authorizing{Stamp: model.Stamp{Time: s.now(), Gen: g.n}}
		if a.Running {
			ev.Text, ev.URL = a.Step.Text, a.Step.URL
		}
		s.push(ev)
	})
}
