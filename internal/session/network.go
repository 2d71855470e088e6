package session

import (
	"errors"
	"net/http"
	neturl "net/url"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// watchNetwork makes an HTTP server's exchanges events of generation g for
// the network view (pane 5), chained after any hooks already set. Secrets
// are redacted here, before anything keeps them: the headers and URL by
// record's rules (as --record redacts arguments), so the model, the screen
// and a copy never hold a credential.
func (s *Session) watchNetwork(g *generation, opts *mcp.Options) {
	h := &opts.HTTP
	userEx, userUp := h.OnExchange, h.OnExchangeUpdate
	h.OnExchange = func(e httpconn.Exchange) {
		if userEx != nil {
			userEx(e)
		}
		s.push(exchangeEvent(g.n, e))
	}
	h.OnExchangeUpdate = func(u httpconn.ExchangeUpdate) {
		if userUp != nil {
			userUp(u)
		}
		s.push(updateEvent(g.n, u))
	}
}

// exchangeEvent is e as the model takes it, redacted.
func exchangeEvent(gen int, e httpconn.Exchange) model.Exchange {
	url := record.RedactURL(e.URL)
	ev := model.Exchange{Stamp: model.Stamp{Time: e.Time, Gen: gen}, ID: e.ID, Method: e.Method, URL: url,
		Transport: e.Transport, Status: e.Status, Duration: e.Duration,
		RequestHeader: redactHeaders(e.RequestHeader), ResponseHeader: redactHeaders(e.ResponseHeader),
		RequestBytes: e.RequestBytes, ResponseBytes: e.ResponseBytes, Body: e.Body}
	if e.Err != nil {
		// The method and URL are the exchange's own columns: the error
		// is what is left (a *url.Error's cause).
		err := e.Err
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		ev.Err = strings.ReplaceAll(err.Error(), e.URL, url)
	}
	return ev
}

// updateEvent is u as the model takes it: the message copied (httpconn
// may reuse it) only while the model still indexes the exchange's
// messages; past that only the totals matter.
func updateEvent(gen int, u httpconn.ExchangeUpdate) model.ExchangeUpdate {
	ev := model.ExchangeUpdate{Stamp: model.Stamp{Time: u.Time, Gen: gen}, ID: u.ID, Messages: u.Messages, Bytes: u.Bytes,
		Size: u.Size, End: u.End, Closed: u.Closed}
	switch {
	case u.End:
	case u.Message == nil:
		ev.Over = true
	case u.Messages <= model.MaxCarried:
		ev.Message = slices.Clone(u.Message)
	}
	if u.Err != nil {
		ev.Err = u.Err.Error()
	}
	return ev
}

// redactHeaders lists h by name with every value redacted as RedactHeader
// says.
func redactHeaders(h http.Header) []model.Header {
	if len(h) == 0 {
		return nil
	}
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	var out []model.Header
	for _, name := range names {
		for _, v := range h[name] {
			out = append(out, model.Header{Name: name, Value: record.RedactHeader(name, v)})
		}
	}
	return out
}
