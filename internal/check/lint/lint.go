// Package lint judges a session's traffic against the rules that can be
// decided from the wire alone (rules.Rule.Live): a non-JSON stdout line,
// progress going backwards, a response after a cancel, a result breaking
// its tool's outputSchema, a notification for an undeclared capability.
// It is a reducer over the lines in order, with no I/O: the inspector's
// model feeds it every line, and mcptui check feeds it the lines of its
// runs, so both judge traffic the same way.
package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Line is one line of traffic.
type Line struct {
	// Seq is the traffic entry the line is (findings point at it).
	Seq uint64
	// Out is true for a line the client sent, false for one the server sent.
	Out bool
	// Raw is the line without its newline; nil when it was too long to keep.
	Raw []byte
	// Discarded marks a line the client could not use; Reason says why.
	Discarded bool
	Reason    string
	// Head, when HeadRead, is the line's jsonrpc, id, method and params
	// members as jsonscan.Fields reads them (HeadOK its answer), read by a
	// caller that read them anyway: the line is then not read again.
	Head     [4][]byte
	HeadRead bool
	HeadOK   bool
	// Valid, with HeadRead, says the reader of Head found Raw one valid
	// JSON value (jsonscan.FieldsValid): the linter does not check it
	// again, so that a large result is checked once, where it is read.
	Valid bool
}

// Finding is one rule broken by one line.
type Finding struct {
	Rule string
	Seq  uint64
	// Era is the protocol revision the line was judged on ("" before the
	// linter knew one): Spec().URL(Era) is the section to cite.
	Era string
	// Message says what was seen, quoting the server: untrusted text.
	Message string
}

// Spec is the rule the finding breaks: its text, level, section and fix,
// for views that list findings beside the rule they cite.
func (f Finding) Spec() rules.Rule {
	r, _ := rules.Get(f.Rule)
	return r
}

// Limits on what the linter remembers, so that no server can grow it
// without bound.
const (
	maxPending = 4096
	maxTools   = 2048
)

// request is a request the client sent that has no answer yet.
type request struct {
	method    string
	tool      string
	token     string
	logLevel  bool
	caps      json.RawMessage
	version   string
	cancelled bool
	// sentAt is how many lines the client had sent before this request;
	// cancelAt the same for its cancellation. Once the server answers a
	// request sent after the cancel, it has read the cancel (stdio is in
	// order): only then is a message for the request no crossing race
	// (cancelRead), whatever the machine's load.
	sentAt, cancelAt uint64
	cancelRead       bool
}

// Linter holds what the rules need to remember between lines.
type Linter struct {
	version     string // negotiated (or last requested, on 2026-07-28)
	caps        *capabilities
	initSent    bool
	initialized bool
	level       int // protocol.LevelRank of the level set by logging/setLevel; -1 none
	pending     map[string]*request
	progress    map[string]float64 // last progress per active token
	tokens      map[string]string  // token -> request id key
	cancelled   map[string]bool    // cancelled requests already answered or not
	schemas     map[string]Validate
	compile     CompileSchema            // nil: no schema is compiled
	subs        map[string]*subscription // open subscriptions/listen requests by id
	sentN       uint64                   // lines the client sent
	clientCaps  json.RawMessage          // the capabilities initialize declared
	unread      []string                 // cancelled requests the server may not have read the cancel of
}

// capabilities are the server capabilities the live rules look at.
type capabilities struct {
	Tools     *struct{ ListChanged bool } `json:"tools"`
	Prompts   *struct{ ListChanged bool } `json:"prompts"`
	Resources *struct {
		ListChanged bool
		Subscribe   bool
	} `json:"resources"`
	Logging json.RawMessage `json:"logging"`
}

// Validate checks a value against one compiled JSON Schema: nil when it
// conforms, what it breaks otherwise.
type Validate = func(value json.RawMessage) error

// CompileSchema compiles a JSON Schema for Validate (schemaform.Validator
// is mcptui's), or fails for a schema it cannot use.
type CompileSchema func(schema json.RawMessage) (Validate, error)

// New returns a linter for a session that has not started yet. It judges
// every live rule but tools.structured-content-conforms, which needs a
// JSON Schema validator: NewWithSchemas judges that one too.
func New() *Linter { return NewWithSchemas(nil) }

// NewWithSchemas is New with compile for the tools' output schemas (nil:
// none, as New).
func NewWithSchemas(compile CompileSchema) *Linter {
	return &Linter{level: -1, pending: map[string]*request{}, progress: map[string]float64{},
		tokens: map[string]string{}, cancelled: map[string]bool{}, schemas: map[string]Validate{}, subs: map[string]*subscription{},
		compile: compile}
}

// Version is the protocol revision the linter believes is in use ("" until
// it has seen one).
func (l *Linter) Version() string { return l.version }

// Reset forgets the session (a restarted server) but keeps what no restart
// changes: the schema compiler; the tool schemas come again with tools/list.
func (l *Linter) Reset() { *l = *NewWithSchemas(l.compile) }

// Observe judges one line and returns the rules it breaks.
func (l *Linter) Observe(ln Line) []Finding {
	if ln.Out {
		l.sent(ln.Raw)
		return nil
	}
	j := judge{l: l, seq: ln.Seq}
	switch {
	case ln.Raw == nil:
	case !utf8.Valid(ln.Raw):
		j.fail("transport.utf8", l.version, "a line of stdout is not valid UTF-8: %s", clip(ln.Raw))
	case ln.Discarded && !jsonscan.Valid(ln.Raw):
		j.framing(ln.Raw)
	case ln.Discarded && ln.Reason == rpccall.ReasonIDLessErrorBody:
		// An HTTP error answer's body: the transport lets its error have
		// no id ("The HTTP response body MAY comprise a JSON-RPC error
		// response that has no id"). It answers the POST's own message:
		// judged as an error, never as a reply to a notification.
		j.httpError = true
		j.received(ln.Raw, ln.HeadRead && ln.Valid)
	case ln.Discarded || !j.notificationFast(ln):
		// (A plain notification was judged by notificationFast.)
		j.received(ln.Raw, ln.HeadRead && ln.Valid)
	}
	return j.out
}

// judge collects the findings of one line.
type judge struct {
	l   *Linter
	seq uint64
	out []Finding
	// httpError marks the body of an HTTP error answer (an id-less error
	// there answers the POST).
	httpError bool
}

// fail records a finding when rule applies to version.
func (j *judge) fail(rule, version string, format string, a ...any) {
	r, ok := rules.Get(rule)
	if !ok {
		panic("lint: unknown rule " + rule)
	}
	if version == "" {
		// Unknown era: only rules of every era apply.
		if r.Since != rules.Eras[0] || r.Until != "" {
			return
		}
	} else if !r.Applies(version) {
		return
	}
	j.out = append(j.out, Finding{Rule: rule, Seq: j.seq, Era: version, Message: fmt.Sprintf(format, a...)})
}

// framing classifies a line that is not one JSON value.
func (j *judge) framing(raw []byte) {
	v := j.l.version
	t := bytes.TrimSpace(raw)
	switch {
	case concatenated(t):
		j.fail("transport.one-message-per-line", v, "several JSON messages on one line: %s", clip(raw))
	case len(t) > 0 && (t[0] == '{' || t[len(t)-1] == '}' || t[0] == '"'):
		j.fail("transport.one-message-per-line", v, "a message split across lines (this piece is not JSON): %s", clip(raw))
	default:
		j.fail("transport.stdout-messages-only", v, "stdout carried a line that is not JSON-RPC: %s", clip(raw))
	}
}

// concatenated reports whether b holds two or more JSON values in a row.
func concatenated(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	n := 0
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return n >= 2 && dec.InputOffset() == int64(len(b))
		}
		n++
		if dec.InputOffset() == int64(len(b)) {
			return n >= 2
		}
	}
}

// message is the envelope of a JSON-RPC message.
type message struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// decode is json.Unmarshal(raw, m) for raw valid JSON, its values in
// place (decodeFields).
func (m *message) decode(raw []byte) error {
	return decodeFields(raw, at("jsonrpc", &m.JSONRPC), at("id", &m.ID), at("method", &m.Method),
		at("params", &m.Params), at("result", &m.Result), at("error", &m.Error))
}

// received judges a line the server sent; valid says raw is known to be
// valid JSON.
func (j *judge) received(raw []byte, valid bool) {
	l := j.l
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '[' {
		j.fail("transport.no-batches", l.version, "the server sent a JSON-RPC batch (an array)")
		return
	}
	var m message
	if !valid && !jsonscan.Valid(raw) || m.decode(raw) != nil {
		j.fail("transport.stdout-messages-only", l.version, "stdout carried JSON that is not a JSON-RPC message: %s", clip(raw))
		return
	}
	if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
		j.fail("basic.jsonrpc-2", l.version, `the message lacks "jsonrpc":"2.0": %s`, clip(raw))
	}
	switch {
	case m.Method != nil && m.ID != nil:
		j.serverRequest(&m)
	case m.Method != nil:
		j.notification(*m.Method, m.Params)
	default:
		j.response(&m, raw)
	}
}

func (j *judge) serverRequest(m *message) {
	l := j.l
	v := l.version
	if v != "" && protocol.Stateless(v) {
		j.fail("lifecycle.no-server-requests", v, "the server sent a %s request", clip([]byte(*m.Method)))
		return
	}
	if !isID(m.ID) {
		j.fail("basic.request-id", v, "the server's %s request has id %s (want a string or an integer)", clip([]byte(*m.Method)), clip(m.ID))
	}
	if l.initSent && !l.initialized && *m.Method != protocol.MethodPing && *m.Method != protocol.MethodSetLevel {
		j.fail("lifecycle.no-requests-before-initialized", v, "the server sent %s before notifications/initialized", clip([]byte(*m.Method)))
	}
	j.question(*m.Method, m.Params, l.clientCaps, true, v)
}

// paramNames are the params members notification reads: _meta of every
// notification, and a log message's level, data and logger.
var paramNames = [4]string{"_meta", "level", "data", "logger"}

func (j *judge) notification(method string, params json.RawMessage) {
	l := j.l
	v := l.version
	// Read in place, once: every notification of a flood comes here. A log
	// message's members are read in the same pass as _meta.
	var pm [4][]byte // _meta, level, data, logger
	names := pm[:1]
	if method == protocol.NotificationMessage {
		names = pm[:]
	}
	pmOK := jsonscan.Fields(params, names, paramNames[:len(names)]...)
	j.metaKeys(pm[0], method, v)
	modern := protocol.Stateless(v)
	switch method {
	case protocol.NotificationProgress:
		j.progressShape(params, v)
		var p struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress *float64        `json:"progress"`
		}
		p.Token, p.Progress = progressOf(params)
		key := tokenKey(p.Token)
		id, ok := l.tokens[key]
		if !ok {
			j.fail("progress.known-token", v, "progress for token %s, which no request in flight carries", clip(p.Token))
			return
		}
		if r := l.pending[id]; r != nil && r.cancelled {
			if r.cancelRead {
				j.fail("cancellation.no-response", r.version, "progress for request %s after it was cancelled", clip([]byte(id)))
			}
		}
		if p.Progress == nil {
			return
		}
		if last, seen := l.progress[key]; seen && *p.Progress <= last {
			j.fail("progress.increasing", v, "progress went from %s to %s for token %s", num(last), num(*p.Progress), clip(p.Token))
		}
		l.progress[key] = *p.Progress
	case protocol.NotificationMessage:
		j.messageShape(params, [3][]byte(pm[1:]), pmOK, v)
		p := struct{ Level string }{logLevel(pm[1], params)}
		lv := protocol.LevelRank(p.Level)
		if lv < 0 {
			j.fail("logging.valid-level", v, "log message with level %q", clip([]byte(p.Level)))
		}
		if l.caps != nil && l.caps.Logging == nil {
			j.fail("capabilities.logging-declared", v, "a log message, and the server did not declare logging")
		}
		if l.level >= 0 && lv >= 0 && lv < l.level {
			j.fail("logging.level-respected", v, "a %s message after logging/setLevel %s", p.Level, protocol.LevelName(l.level))
		}
		if modern {
			if tag := members(members(params)["_meta"])[metaSubscriptionID]; tag != nil {
				j.fail("logging.not-on-subscription", v, "a log message on subscription %s", clip(tag))
			}
		}
		if protocol.Stateless(v) && !l.anyLogLevel() {
			j.fail("logging.request-scoped", v, "a log message while no request in flight carries a logLevel")
		}
	case "notifications/subscriptions/acknowledged":
		j.acknowledged(params, v)
	case protocol.NotificationCancelled:
		if modern {
			key := valueKey(members(params)["requestId"])
			if r := l.pending[key]; r == nil || r.method != protocol.MethodListen {
				j.fail("cancellation.server-cancel-listen-only", v, "notifications/cancelled for request %s, which is no open subscriptions/listen", clip([]byte(key)))
			}
		}
	}
	if modern && strings.HasSuffix(method, "/list_changed") || modern && method == protocol.NotificationResourceUpdated {
		j.changed(method, params, v)
	}
	switch method {
	case protocol.NotificationToolsChanged:
		if l.caps != nil && (l.caps.Tools == nil || !l.caps.Tools.ListChanged) {
			j.fail("capabilities.list-changed-declared", v, "tools/list_changed, and the server did not declare tools.listChanged")
		}
	case protocol.NotificationPromptsChanged:
		if l.caps != nil && (l.caps.Prompts == nil || !l.caps.Prompts.ListChanged) {
			j.fail("capabilities.list-changed-declared", v, "prompts/list_changed, and the server did not declare prompts.listChanged")
		}
	case protocol.NotificationResourcesChanged:
		if l.caps != nil && (l.caps.Resources == nil || !l.caps.Resources.ListChanged) {
			j.fail("capabilities.list-changed-declared", v, "resources/list_changed, and the server did not declare resources.listChanged")
		}
	case protocol.NotificationResourceUpdated:
		if l.caps != nil && !protocol.Stateless(v) && (l.caps.Resources == nil || !l.caps.Resources.Subscribe) {
			j.fail("capabilities.list-changed-declared", v, "resources/updated, and the server did not declare resources.subscribe")
		}
	}
}

func (l *Linter) anyLogLevel() bool {
	for _, r := range l.pending {
		if r.logLevel {
			return true
		}
	}
	return false
}

func (j *judge) response(m *message, raw []byte) {
	l := j.l
	key := valueKey(m.ID)
	r := l.pending[key]
	v := l.version
	if r != nil && r.version != "" {
		v = r.version
	}
	hasResult, hasError := m.Result != nil, m.Error != nil
	if hasResult == hasError {
		j.fail("basic.result-xor-error", v, "a response with %s", map[bool]string{true: "both result and error", false: "neither result nor error"}[hasResult])
	}
	if hasError {
		var e struct {
			Code    json.RawMessage `json:"code"`
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal(m.Error, &e) != nil || !isInteger(e.Code) {
			j.fail("basic.error-code-integer", v, "error code %s is not an integer", clip(e.Code))
		}
		if len(e.Message) == 0 || e.Message[0] != '"' {
			j.fail("errors.error-shape", v, "error without a string message: %s", clip(m.Error))
		}
		j.internals(m.Error, v)
		j.errorCode26(e.Code, v)
		if string(e.Code) == "-32021" && members(members(members(m.Error)["data"])["requiredCapabilities"]) == nil {
			j.fail("errors.missing-capability-data", v, "error -32021 without data.requiredCapabilities: %s", clip(m.Error))
		}
	}
	if r == nil && (m.ID == nil || string(m.ID) == "null") {
		if hasResult || !parseOrInvalid(m.Error) && !j.httpError {
			j.fail("basic.no-response-to-notification", v, "a response without an id (the answer to a notification?): %s", clip(raw))
		}
		return
	}
	if hasResult && (len(bytes.TrimSpace(m.Result)) == 0 || bytes.TrimSpace(m.Result)[0] != '{') {
		j.fail("basic.result-object", v, "the %s result is %s, not an object", methodOf(r), clip(m.Result))
	}
	if r == nil {
		if l.cancelled[key] {
			j.fail("cancellation.no-response", v, "a second response to request %s after it was cancelled", clip(m.ID))
			delete(l.cancelled, key)
			return
		}
		j.fail("basic.response-id", v, "a response with id %s, which the client never sent (or already had answered)", clip(m.ID))
		return
	}
	l.finish(key)
	delete(l.subs, key)
	l.cancelsRead(r.sentAt)
	// A subscriptions/listen ends with its terminal result after the
	// client's cancel: that answer is the normal end, not a late response.
	if r.cancelled && r.cancelRead && r.method != protocol.MethodListen {
		j.fail("cancellation.no-response", v, "a response to %s request %s after it was cancelled (and after the server answered a later request)", r.method, clip(m.ID))
	}
	if hasResult && !hasError {
		j.result(r, m.Result, v)
	}
}

// cacheable are the methods whose 2026-07-28 results carry ttlMs and cacheScope.
var cacheable = []string{protocol.MethodDiscover, protocol.MethodListTools, protocol.MethodListPrompts, protocol.MethodListResources, protocol.MethodListResourceTemplates, protocol.MethodReadResource}

func (j *judge) result(r *request, res json.RawMessage, v string) {
	l := j.l
	var top struct {
		ResultType    *string         `json:"resultType"`
		TTL           *float64        `json:"ttlMs"`
		CacheScope    *string         `json:"cacheScope"`
		InputRequests json.RawMessage `json:"inputRequests"`
		RequestState  json.RawMessage `json:"requestState"`
		Meta          json.RawMessage `json:"_meta"`
	}
	if decodeFields(res, at("resultType", &top.ResultType), at("ttlMs", &top.TTL), at("cacheScope", &top.CacheScope),
		at("inputRequests", &top.InputRequests), at("requestState", &top.RequestState), at("_meta", &top.Meta)) != nil {
		return
	}
	j.metaKeys(top.Meta, r.method+" result", v)
	modern := protocol.Stateless(v)
	switch r.method {
	case protocol.MethodInitialize:
		var ir struct {
			ProtocolVersion string          `json:"protocolVersion"`
			Capabilities    json.RawMessage `json:"capabilities"`
		}
		if json.Unmarshal(res, &ir) == nil {
			l.version = ir.ProtocolVersion
			l.setCaps(ir.Capabilities)
			j.icons(members(members(res)["serverInfo"])["icons"], "serverInfo", l.version)
		}
		return
	case protocol.MethodDiscover:
		var d struct {
			Capabilities json.RawMessage `json:"capabilities"`
		}
		if json.Unmarshal(res, &d) == nil {
			l.setCaps(d.Capabilities)
		}
	}
	if modern {
		switch {
		case top.ResultType == nil && r.method != protocol.MethodListen:
			j.fail("lifecycle.result-type", v, "the %s result has no resultType", r.method)
		case top.ResultType != nil && *top.ResultType != "complete" && *top.ResultType != "input_required" && *top.ResultType != "task":
			j.fail("lifecycle.result-type", v, "the %s result has resultType %q", r.method, clip([]byte(*top.ResultType)))
		}
		if top.ResultType != nil && *top.ResultType == "task" {
			j.createdTask(r, res, v)
			return
		}
		if r.method == protocol.MethodTasksGet {
			j.taskGot(res, v)
		}
		inputRequired := top.ResultType != nil && *top.ResultType == "input_required"
		if !inputRequired && slices.Contains(cacheable, r.method) &&
			(top.TTL == nil || *top.TTL < 0 || top.CacheScope == nil || (*top.CacheScope != "public" && *top.CacheScope != "private")) {
			j.fail("lifecycle.cacheable-results", v, "the %s result lacks a valid ttlMs and cacheScope", r.method)
		}
		if inputRequired {
			j.inputRequired(r, top.InputRequests, top.RequestState, v)
			return
		}
	}
	j.listed(r.method, res, v)
	switch r.method {
	case protocol.MethodListTools:
		l.learnTools(res)
	case protocol.MethodCallTool:
		j.structured(r, res, v)
		j.toolContent(r, res, v)
	case protocol.MethodGetPrompt:
		for _, m := range array(members(res)["messages"]) {
			j.content(members(m)["content"], "prompts/get "+clip([]byte(r.tool)), v)
		}
	case protocol.MethodReadResource:
		for _, c := range array(members(res)["contents"]) {
			j.resourceContents(c, protocol.MethodReadResource, v)
		}
	}
}

// toolContent judges a tool result's content items and structuredContent.
func (j *judge) toolContent(r *request, res json.RawMessage, v string) {
	m := members(res)
	where := "tool " + strconv.Quote(clip([]byte(r.tool)))
	for _, c := range array(m["content"]) {
		j.content(c, where, v)
		if str(members(c)["type"]) == "resource" && j.l.caps != nil && j.l.caps.Resources == nil {
			j.fail("tools.embedded-resources-capability", v, "%s returned an embedded resource, and the server does not declare resources", where)
		}
	}
	if sc := m["structuredContent"]; sc != nil && string(sc) != "null" && sc[0] != '{' {
		j.fail("tools.structured-content-object", v, "%s: structuredContent is %s, not an object", where, clip(sc))
	}
}

// inputRequired judges an input_required result: allowed on this method,
// not empty, only the three kinds of question, only declared capabilities.
func (j *judge) inputRequired(r *request, rawReqs, state json.RawMessage, v string) {
	if !slices.Contains([]string{protocol.MethodCallTool, protocol.MethodGetPrompt, protocol.MethodReadResource}, r.method) {
		j.fail("mrtr.methods", v, "the %s result is input_required", r.method)
	}
	reqs := members(rawReqs)
	if len(reqs) == 0 && state == nil {
		j.fail("mrtr.not-empty", v, "an input_required %s result with neither inputRequests nor requestState", r.method)
	}
	if rawReqs != nil && reqs == nil {
		j.fail("mrtr.request-kinds", v, "inputRequests is %s, not an object", clip(rawReqs))
	}
	if state != nil && !isString(state) {
		j.fail("mrtr.request-kinds", v, "requestState is %s, not a string", clip(state))
	}
	for key, q := range reqs {
		qm := members(q)
		method := str(qm["method"])
		if !slices.Contains([]string{protocol.MethodElicit, protocol.MethodCreateMessage, protocol.MethodListRoots}, method) ||
			(method != protocol.MethodListRoots && members(qm["params"]) == nil) {
			j.fail("mrtr.request-kinds", v, "input request %q is %s", clip([]byte(key)), clip(q))
		}
	}
	j.inputRequests(r, reqs, v)
}

// progressShape judges a progress notification's members.
func (j *judge) progressShape(params json.RawMessage, v string) {
	p := members(params)
	switch {
	case p == nil:
		j.fail("progress.shape", v, "progress params %s", clip(params))
	case !isID(p["progressToken"]):
		j.fail("progress.shape", v, "progressToken %s (want a string or an integer)", clip(p["progressToken"]))
	case !isNumber(p["progress"]):
		j.fail("progress.shape", v, "progress %s is not a number", clip(p["progress"]))
	case p["total"] != nil && !isNumber(p["total"]):
		j.fail("progress.shape", v, "total %s is not a number", clip(p["total"]))
	case p["message"] != nil && !isString(p["message"]):
		j.fail("progress.shape", v, "message %s is not a string", clip(p["message"]))
	}
}

// messageShape judges a log message's members.
// messageShape judges a log message's params by their level, data and
// logger members (p, as jsonscan.Fields read them; ok its answer).
func (j *judge) messageShape(params json.RawMessage, p [3][]byte, ok bool, v string) {
	switch {
	case !ok || !isString(p[0]):
		j.fail("logging.message-shape", v, "a log message without a level string: %s", clip(params))
	case p[1] == nil:
		j.fail("logging.message-shape", v, "a %s log message without data", clip(p[0]))
	case p[2] != nil && !isString(p[2]):
		j.fail("logging.message-shape", v, "logger %s is not a string", clip(p[2]))
	}
}

// parseOrInvalid reports whether an error is -32700 or -32600, the only
// ones JSON-RPC lets a server send with a null id.
func parseOrInvalid(raw json.RawMessage) bool {
	var e struct {
		Code int `json:"code"`
	}
	_ = json.Unmarshal(raw, &e)
	return e.Code == -32700 || e.Code == -32600
}

func methodOf(r *request) string {
	if r == nil {
		return "unknown request's"
	}
	return r.method
}

// inputRequests checks that every question asks for a declared capability.
func (j *judge) inputRequests(r *request, reqs map[string]json.RawMessage, v string) {
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(r.caps, &caps)
	for key, raw := range reqs {
		var q struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(raw, &q)
		need := map[string]string{protocol.MethodCreateMessage: "sampling", protocol.MethodElicit: "elicitation", protocol.MethodListRoots: "roots"}[q.Method]
		if need != "" && caps[need] == nil {
			j.fail("mrtr.declared-capabilities", v, "input request %q asks %s, and the client did not declare %s", clip([]byte(key)), q.Method, need)
			continue
		}
		j.question(q.Method, members(raw)["params"], r.caps, false, v)
	}
}

// listedTool is what learnTools reads of a tool.
type listedTool struct {
	Name         string          `json:"name"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// toolsOf is json.Unmarshal(res, &struct{ Tools []listedTool }) read in
// place (a list of 50,000 tools is walked, not decoded): ok is false where
// Unmarshal would fail. The schemas are the line's.
func toolsOf(res json.RawMessage) (tools []listedTool, ok bool) {
	var list json.RawMessage
	if decodeFields(res, at("tools", &list)) != nil {
		return nil, false
	}
	if len(list) == 0 || string(list) == "null" {
		return nil, true
	}
	if list[0] != '[' {
		return nil, false // not a list: Unmarshal's type error
	}
	for _, raw := range array(list) {
		var t listedTool
		if decodeFields(raw, at("name", &t.Name), at("outputSchema", &t.OutputSchema)) != nil {
			return nil, false
		}
		tools = append(tools, t)
	}
	return tools, true
}

func (l *Linter) learnTools(res json.RawMessage) {
	tools, ok := toolsOf(res)
	if !ok {
		return
	}
	for _, t := range tools {
		t.OutputSchema = bytes.Clone(t.OutputSchema) // the compiled schema may keep it
		if len(t.OutputSchema) == 0 {
			delete(l.schemas, t.Name)
			continue
		}
		if len(l.schemas) >= maxTools || l.compile == nil {
			return
		}
		if validate, err := l.compile(t.OutputSchema); err == nil && validate != nil {
			l.schemas[t.Name] = validate
		}
	}
}

// structured checks a tool result against the tool's outputSchema.
func (j *judge) structured(r *request, res json.RawMessage, v string) {
	validate := j.l.schemas[r.tool]
	if validate == nil {
		return
	}
	var cr struct {
		Structured json.RawMessage `json:"structuredContent"`
		IsError    bool            `json:"isError"`
	}
	if decodeFields(res, at("structuredContent", &cr.Structured), at("isError", &cr.IsError)) != nil || cr.IsError {
		return
	}
	if cr.Structured == nil {
		j.fail("tools.structured-content-conforms", v, "tool %q has an outputSchema and its result has no structuredContent", clip([]byte(r.tool)))
		return
	}
	if err := validate(cr.Structured); err != nil {
		j.fail("tools.structured-content-conforms", v, "tool %q: structuredContent breaks its outputSchema: %s", clip([]byte(r.tool)), clip([]byte(err.Error())))
	}
}

func (l *Linter) setCaps(raw json.RawMessage) {
	var c capabilities
	if json.Unmarshal(raw, &c) == nil {
		l.caps = &c
	}
}

// sent follows what the client sent: requests in flight, cancellations,
// the initialize handshake and the log level.
func (l *Linter) sent(raw []byte) {
	l.sentN++
	var m message
	if raw == nil || json.Unmarshal(raw, &m) != nil || m.Method == nil {
		return
	}
	var p struct {
		Name      string          `json:"name"`
		Level     string          `json:"level"`
		RequestID json.RawMessage `json:"requestId"`
		Meta      struct {
			Token    json.RawMessage `json:"progressToken"`
			Version  string          `json:"io.modelcontextprotocol/protocolVersion"`
			Caps     json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
			LogLevel string          `json:"io.modelcontextprotocol/logLevel"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &p)
	method := *m.Method
	if m.ID == nil {
		switch method {
		case protocol.NotificationInitialized:
			l.initialized = true
		case protocol.NotificationCancelled:
			key := valueKey(p.RequestID)
			if r := l.pending[key]; r != nil {
				r.cancelled, r.cancelAt = true, l.sentN
				if len(l.unread) < maxPending {
					l.unread = append(l.unread, key)
				}
			}
		}
		return
	}
	if p.Meta.Version != "" {
		l.version = p.Meta.Version
	}
	switch method {
	case protocol.MethodInitialize:
		l.initSent, l.initialized = true, false
		l.clientCaps = bytes.Clone(members(m.Params)["capabilities"]) // kept past the line
	case protocol.MethodSetLevel:
		l.level = protocol.LevelRank(p.Level)
	}
	if len(l.pending) >= maxPending {
		return
	}
	key := valueKey(m.ID)
	if method == protocol.MethodListen {
		l.listenSent(key, m.Params)
	}
	r := &request{sentAt: l.sentN, method: method, version: p.Meta.Version, caps: p.Meta.Caps, logLevel: p.Meta.LogLevel != ""}
	if method == protocol.MethodCallTool || method == protocol.MethodGetPrompt {
		r.tool = p.Name
	}
	if p.Meta.Token != nil {
		r.token = valueKey(p.Meta.Token)
		l.tokens[r.token] = key
	}
	l.pending[key] = r
}

// finish forgets an answered request; a cancelled one is remembered as
// answered, so that a second answer is still told apart from an unknown id.
func (l *Linter) cancelsRead(sentAt uint64) {
	keep := l.unread[:0]
	for _, k := range l.unread {
		if c := l.pending[k]; c != nil && !c.cancelRead {
			if c.cancelAt < sentAt {
				c.cancelRead = true
				continue
			}
			keep = append(keep, k)
		}
	}
	l.unread = keep
}

func (l *Linter) finish(key string) {
	r := l.pending[key]
	if r == nil {
		return
	}
	if r.token != "" {
		delete(l.tokens, r.token)
		delete(l.progress, r.token)
	}
	delete(l.pending, key)
	if r.cancelled && len(l.cancelled) < maxPending {
		l.cancelled[key] = true
	}
}

// valueKey is an id or token as a map key, by its JSON value: 1 and 1.0
// are one key, 1 and "1" two, a string by what it decodes to.
func valueKey(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func isID(raw json.RawMessage) bool {
	return len(raw) > 0 && (raw[0] == '"' || isInteger(raw))
}

func isInteger(raw json.RawMessage) bool {
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		return false
	}
	_, err := strconv.ParseInt(n.String(), 10, 64)
	return err == nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// clip is raw server text shortened for a message (still untrusted).
func clip(b []byte) string {
	const n = 120
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
