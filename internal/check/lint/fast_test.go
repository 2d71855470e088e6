package lint

import (
	"fmt"
	"testing"
)

// A progress token is keyed as valueKey keys it, read in place or not.
func TestTokenKeyIsIDKey(t *testing.T) {
	for _, raw := range []string{`5`, `-5`, `0`, `123456789012345`, `1234567890123456789`, `1.0`, `1e3`,
		`"abc"`, `"a<b"`, `"x&y"`, `"café"`, `"a\"b"`, `"\u0041"`, `"tok-7"`} {
		if got, want := tokenKey([]byte(raw)), valueKey([]byte(raw)); got != want {
			t.Errorf("tokenKey(%s) = %q, valueKey %q", raw, got, want)
		}
	}
}

// Judging a flood's notification allocates nothing but what a finding
// needs: the plain notification is read in place.
func TestNotificationAllocations(t *testing.T) {
	l := New()
	line := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick tock"}}`)
	allocs := testing.AllocsPerRun(1000, func() {
		if fs := l.Observe(Line{Seq: 1, Raw: line}); len(fs) != 0 {
			panic(fmt.Sprint(fs))
		}
	})
	if allocs > 0 {
		t.Errorf("a log notification costs %.1f allocations to judge, want 0", allocs)
	}
}
