package demo

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools and prompts that need something from the client (an elicitation, a
// sampling reply, the roots) are written once, in the 2026-07-28 multi
// round-trip style (MRTR, SEP-2322), which go-sdk v1.8.0 supports:
//
//   - The first call returns InputRequests and a RequestState. On a
//     2026-07-28 request go-sdk sends that as an input_required result; the
//     client answers by re-sending the call with inputResponses and the
//     requestState.
//   - On a legacy session (2025-11-25, 2025-06-18) go-sdk's own middleware
//     turns each input request into a server-to-client request
//     (elicitation/create, sampling/createMessage, roots/list) and calls the
//     handler once more with the answers, so the client sees one tools/call.
//
// What is by hand here: the requestState is signed (HMAC with a key made at
// start-up), because the spec says a server must not trust a state it gets
// back; a state that does not verify is a -32602 error.

// roundState is what a requestState carries between rounds.
type roundState struct {
	Tool  string          `json:"tool"`           // the tool or prompt that asked
	Round int             `json:"round"`          // 1 for the first answer awaited
	Data  json.RawMessage `json:"data,omitempty"` // whatever the tool needs next round
}

// seal encodes st as an opaque, signed requestState.
func (d *demo) seal(st roundState) string {
	body, _ := json.Marshal(st)
	mac := hmac.New(sha256.New, d.key)
	mac.Write(body)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(body) + "." + enc.EncodeToString(mac.Sum(nil))
}

// unseal verifies and decodes a requestState made by seal for owner.
func (d *demo) unseal(s, owner string) (roundState, error) {
	var st roundState
	body64, sig64, ok := strings.Cut(s, ".")
	enc := base64.RawURLEncoding
	body, err1 := enc.DecodeString(body64)
	sig, err2 := enc.DecodeString(sig64)
	if !ok || err1 != nil || err2 != nil {
		return st, badState("requestState is not one this server made")
	}
	mac := hmac.New(sha256.New, d.key)
	mac.Write(body)
	if !hmac.Equal(sig, mac.Sum(nil)) {
		return st, badState("requestState does not verify (was it changed, or made by an earlier run of the server?)")
	}
	if json.Unmarshal(body, &st) != nil || st.Tool != owner {
		return st, badState(fmt.Sprintf("requestState belongs to %q, not %q", st.Tool, owner))
	}
	return st, nil
}

func badState(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// round is where a multi round-trip call stands: the answers it brought and
// the state it echoed. Round 0 means a first call.
type round struct {
	roundState
	answers mcp.InputResponseMap
}

// roundOf reads the inputResponses and requestState of a call to owner.
func (d *demo) roundOf(owner string, answers mcp.InputResponseMap, state string) (round, error) {
	r := round{answers: answers}
	if state == "" {
		if len(answers) > 0 {
			return r, badState("inputResponses came without the requestState they answer")
		}
		return r, nil
	}
	st, err := d.unseal(state, owner)
	if err != nil {
		return r, err
	}
	r.roundState = st
	return r, nil
}

// elicitAnswer returns the elicitation answer under key, or nil if the
// client did not send one (the caller then asks again).
func (r round) elicitAnswer(key string) *mcp.ElicitResult {
	v, _ := r.answers[key].(*mcp.ElicitResult)
	return v
}

// sampleAnswer returns the sampling answer under key, or nil.
func (r round) sampleAnswer(key string) *mcp.CreateMessageWithToolsResult {
	switch v := r.answers[key].(type) {
	case *mcp.CreateMessageWithToolsResult:
		return v
	case *mcp.CreateMessageResult:
		return &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{v.Content}, Model: v.Model, Role: v.Role, StopReason: v.StopReason}
	}
	return nil
}

// rootsAnswer returns the roots answer under key, or nil.
func (r round) rootsAnswer(key string) *mcp.ListRootsResult {
	v, _ := r.answers[key].(*mcp.ListRootsResult)
	return v
}

// ask builds the result that asks the client for more input.
func (d *demo) ask(owner string, nextRound int, data any, reqs mcp.InputRequestMap) *mcp.CallToolResult {
	// An empty content list rather than go-sdk's "content": null.
	return &mcp.CallToolResult{Content: []mcp.Content{}, InputRequests: reqs, RequestState: d.seal(d.state(owner, nextRound, data))}
}

func (d *demo) state(owner string, nextRound int, data any) roundState {
	st := roundState{Tool: owner, Round: nextRound}
	if data != nil {
		st.Data, _ = json.Marshal(data)
	}
	return st
}
