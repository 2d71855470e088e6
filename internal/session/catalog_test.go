package session

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/model"
)

// Whether the roots' change is announced is the session's decision, by
// era: notifications/roots/list_changed on 2025-11-25, nothing on
// 2026-07-28 (which has no such notification). The catalog's lists go on
// the session's connection.
func TestCatalogRootsChangedByEra(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			h := start(t, version)
			waitFor(h, "Ready", anyOf[model.Ready])
			cat := h.s.Catalog("demo")
			if tools, err := cat.ListTools(context.Background()); err != nil || len(tools) == 0 {
				t.Fatalf("ListTools: %d, %v", len(tools), err)
			}
			did, err := cat.RootsChanged(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if version == "2025-11-25" {
				waitFor(h, "list_changed on the wire", func(w model.Wire) bool {
					return w.Dir == model.Out && strings.Contains(string(w.Line), `"notifications/roots/list_changed"`)
				})
				if !strings.Contains(did, "sent") {
					t.Errorf("said %q", did)
				}
				return
			}
			if !strings.Contains(did, "no list_changed") {
				t.Errorf("said %q", did)
			}
			for _, ev := range h.events {
				if w, ok := ev.(model.Wire); ok && strings.Contains(string(w.Line), "roots/list_changed") {
					t.Errorf("sent on 2026-07-28: %s", w.Line)
				}
			}
		})
	}
}
