package check

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/conn"

	"github.com/mcptui/mcptui/internal/protocol"
)

// A live rule is judged by the linter from the traffic; it found nothing
// wrong only means something when the traffic held what the rule is
// about. evidence records what the server's lines held, so that a rule
// with nothing to judge is skipped, not passed (a server that answers
// initialize and then nothing passes no rule about responses).

// The kinds of evidence.
const (
	evResponse    = "a response to a request after initialize"
	evResult      = "a result"
	evError       = "an error response"
	evBinary      = "image, audio or blob content"
	evAnnotations = "content with annotations"
	evStructured  = "a tool result with structuredContent"
	evProgress    = "a progress notification"
	evLog         = "a log message notification"
	evSampling    = "a sampling request"
	evElicitation = "an elicitation request"
	evInput       = "an input_required result"
	evCancel      = "a cancelled request"
	evSubscribed  = "a subscription's notification"
	evIcons       = "icons"
	evServerReq   = "a request from the server"
)

// evidenceOf maps a live rule's id prefix to the evidence it needs; a
// rule not listed needs evResponse.
var evidenceOf = []struct{ prefix, kind string }{
	{"content.base64", evBinary},
	{"content.mime-type", evBinary},
	{"content.annotations", evAnnotations},
	{"tools.structured-content", evStructured},
	{"tools.embedded-resources", evResult},
	{"progress.", evProgress},
	{"logging.request-scoped", evResponse},
	{"logging.not-on-subscription", evResponse},
	{"logging.", evLog},
	{"sampling.", evSampling},
	{"elicitation.", evElicitation},
	{"mrtr.", evInput},
	{"cancellation.no-response", evCancel},
	{"subscriptions.", evSubscribed},
	{"basic.icons", evIcons},
	{"basic.error-code-integer", evError},
	{"errors.error-shape", evError},
	{"errors.no-internals", evError},
	{"errors.missing-capability-data", evError},
	{"basic.result-object", evResult},
	{"lifecycle.no-requests-before-initialized", ""},
	{"lifecycle.no-server-requests", ""},
	{"cancellation.server-cancel-listen-only", ""},
	{"transport.", ""},
	{"basic.no-response-to-notification", ""},
	{"capabilities.", evResponse},
}

// evidence is what the era's traffic held.
type evidence struct {
	mu   sync.Mutex
	kind map[string]bool
}

func (e *evidence) add(kinds ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.kind == nil {
		e.kind = map[string]bool{}
	}
	for _, k := range kinds {
		e.kind[k] = true
	}
}

// missing is what rule lacks to be judged ("" when nothing): rules of
// the framing and of what the server must not do need no particular
// traffic beyond a session.
func (e *evidence) missing(rule string) string {
	need := evResponse
	for _, p := range evidenceOf {
		if strings.HasPrefix(rule, p.prefix) {
			need = p.kind
			break
		}
	}
	if need == "" {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, k := range []string{evResponse, need} {
		if !e.kind[k] {
			return "the server sent no " + strings.TrimPrefix(strings.TrimPrefix(k, "a "), "an ") + " for it to judge"
		}
	}
	return ""
}

// initIDs are one connection's initialize requests: their answers are no
// evidence of a session that serves.
type initIDs struct {
	ids []string
}

// observe records the evidence in one line of a connection.
func (in *initIDs) observe(ev conn.Event, e *evidence) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	line := bytes.TrimSpace(ev.Line)
	switch ev.Kind {
	case conn.Sent:
		if json.Unmarshal(line, &m) != nil {
			return
		}
		switch m.Method {
		case protocol.MethodInitialize:
			in.ids = append(in.ids, string(m.ID))
		case protocol.NotificationCancelled:
			e.add(evCancel)
		}
		return
	case conn.Received:
	default:
		return
	}
	if json.Unmarshal(line, &m) != nil {
		return
	}
	switch {
	case m.Method != "" && m.ID != nil:
		e.add(evServerReq)
		switch m.Method {
		case protocol.MethodCreateMessage:
			e.add(evSampling)
		case protocol.MethodElicit:
			e.add(evElicitation)
		}
	case m.Method != "":
		switch m.Method {
		case protocol.NotificationProgress:
			e.add(evProgress)
		case protocol.NotificationMessage:
			e.add(evLog)
		}
		if bytes.Contains(line, []byte(`subscriptionId`)) {
			e.add(evSubscribed)
		}
	case m.ID != nil:
		for _, id := range in.ids {
			if id == string(m.ID) {
				return
			}
		}
		e.add(evResponse)
		if m.Error != nil {
			e.add(evError)
		}
		if m.Result != nil {
			e.add(evResult)
		}
	}
	for _, k := range []struct{ sub, kind string }{
		{`"image"`, evBinary}, {`"audio"`, evBinary}, {`"blob"`, evBinary},
		{`"annotations"`, evAnnotations}, {`"structuredContent"`, evStructured},
		{`"input_required"`, evInput}, {`"inputRequests"`, evInput},
		{`"sampling/createMessage"`, evSampling}, {`"elicitation/create"`, evElicitation},
		{`"icons"`, evIcons},
	} {
		if bytes.Contains(line, []byte(k.sub)) {
			e.add(k.kind)
		}
	}
}
