package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/internal/urlpolicy"
	"github.com/mcptui/mcptui/mcp"
)

// Exit codes; see the package documentation.
const (
	ExitOK         = 0
	ExitInternal   = 1
	ExitUsage      = 2
	ExitStart      = 3
	ExitProtocol   = 4
	ExitTool       = 5
	ExitTimeout    = 6
	ExitConnection = 7
	ExitCheck      = 8
	// ExitNotDeclared: the server declares no capability for the request,
	// which was not sent.
	ExitNotDeclared = 9
	ExitInterrupted = 130
)

// Kinds of Failure, one per exit code.
const (
	KindInternal    = "internal"
	KindUsage       = "usage"
	KindStart       = "start"
	KindProtocol    = "protocol"
	KindTool        = "tool"
	KindTimeout     = "timeout"
	KindConnection  = "connection"
	KindCheck       = "check"
	KindNotDeclared = "not-declared"
	KindInterrupted = "interrupted"
)

var exitCodes = map[string]int{
	KindInternal: ExitInternal, KindUsage: ExitUsage, KindStart: ExitStart, KindProtocol: ExitProtocol,
	KindTool: ExitTool, KindTimeout: ExitTimeout, KindConnection: ExitConnection, KindCheck: ExitCheck, KindNotDeclared: ExitNotDeclared,
	KindInterrupted: ExitInterrupted,
}

// Failure is why a command failed: what is printed on stderr as one JSON
// object, and the exit code.
type Failure struct {
	Kind    string `json:"kind"`
	Exit    int    `json:"exitCode"`
	Message string `json:"message"`
	// RPC is the JSON-RPC error, when there is one.
	RPC *RPCError `json:"rpc,omitempty"`
	// Stderr is the tail of the server's stderr, when it helps.
	Stderr []string `json:"serverStderr,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error makes a Failure an error.
func (f *Failure) Error() string { return f.Message }

// fail builds a Failure of a kind.
func fail(kind, format string, a ...any) *Failure {
	return &Failure{Kind: kind, Exit: exitCodes[kind], Message: fmt.Sprintf(format, a...)}
}

// Stage says what a command was doing when an error came, for classify.
type stage int

const (
	stageConnect stage = iota + 1
	stageRequest
)

// classify turns an error from mcp into a Failure. stopped reports whether
// the connection had stopped when the error came.
func classify(ctx context.Context, err error, st stage, stopped bool) *Failure {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fail(KindInterrupted, "interrupted")
	}
	if ctx.Err() != nil {
		return withRPC(fail(KindInterrupted, "interrupted: %v", err), err)
	}
	var e *mcp.Error
	var de *mcp.DecodeError
	var nd *mcp.NotDeclaredError
	var re *urlpolicy.RedirectError
	switch {
	case errors.As(err, &nd):
		return fail(KindNotDeclared, "%v", nd)
	case errors.As(err, &de):
		return fail(KindProtocol, "%v", err)
	case errors.As(err, &e) && e.Code == mcp.CodeTimeout:
		return withRPC(fail(KindTimeout, "%v", err), err)
	case errors.As(err, &e) && rpccall.AnswerDiscarded(err):
		// The server answered, with a line mcptui could not use (over
		// --max-line-bytes, nested too deep): its call failed at once.
		return withRPC(fail(KindProtocol, "%v", err), err)
	case errors.As(err, &re):
		// The outbound policy refused to follow the server: the server
		// answered, so it started; the connection is what was refused.
		return withRPC(fail(KindConnection, "not connected: %v", re), err)
	case st == stageConnect:
		return withRPC(fail(KindStart, "the server did not start: %v", err), err)
	case errors.As(err, &e) && e.Code == mcp.CodeConnection && (stopped || connGone(e)):
		return withRPC(fail(KindConnection, "%v", err), err)
	case errors.As(err, &e):
		return withRPC(fail(KindProtocol, "%v", err), err)
	}
	return fail(KindInternal, "%v", err)
}

// connGone reports whether a -32000 error is the transport's (the server
// exited, stopped reading, or the connection closed) rather than mcp's
// verdict that the server broke the protocol. The transport's carry a cause
// or are worded "The stdio ..."; the error can reach the caller a moment
// before the connection reports itself done.
func connGone(e *mcp.Error) bool {
	return e.Cause != nil || strings.HasPrefix(e.Message, "The stdio ")
}

func withRPC(f *Failure, err error) *Failure {
	var e *mcp.Error
	if errors.As(err, &e) {
		f.RPC = &RPCError{Code: e.Code, Message: e.Message}
		if json.Valid(e.Data) {
			f.RPC.Data = e.Data
		}
	}
	return f
}

// report writes f to w as one line of JSON, escaped for a terminal.
func report(w io.Writer, f *Failure) {
	var enc bytes.Buffer
	je := json.NewEncoder(&enc)
	je.SetEscapeHTML(false)
	err := je.Encode(struct {
		Error *Failure `json:"error"`
	}{f})
	b := bytes.TrimSpace(enc.Bytes())
	if err != nil {
		fmt.Fprintf(w, "{\"error\":{\"kind\":%q,\"exitCode\":%d}}\n", f.Kind, f.Exit)
		return
	}
	var out bytes.Buffer
	if err := inert.WriteJSON(&out, b, false); err != nil {
		fmt.Fprintf(w, "{\"error\":{\"kind\":%q,\"exitCode\":%d}}\n", f.Kind, f.Exit)
		return
	}
	_, _ = w.Write(out.Bytes())
}
