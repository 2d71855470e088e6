package replay

import (
	"testing"

	"github.com/mcptui/mcptui/model"
)

// A recording's initialize answer finds its request by the id as peers
// match it (rpccall.MatchKey): an answer to id 1 written 1.0 still makes
// the replayed session ready.
func TestReadinessMatchesIDByValue(t *testing.T) {
	r := &readiness{requests: map[string]string{}}
	r.observe(model.Wire{Dir: model.Out, Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)})
	ready, ok := r.observe(model.Wire{Dir: model.In, Line: []byte(`{"jsonrpc":"2.0","id":1.0,"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"s","version":"1"}}}`)})
	if !ok || ready.Protocol != "2025-06-18" || ready.ServerName != "s" {
		t.Fatalf("ready %+v, %v: the answer written 1.0 did not find request 1", ready, ok)
	}
	if len(r.requests) != 0 {
		t.Errorf("request 1 still waits: %v", r.requests)
	}
}
