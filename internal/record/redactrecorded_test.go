package record

import "testing"

// TestRedactRecordedHeader: a header read back from a recording keeps the
// recorder's own redaction (redacting it again would cut the cut id to
// the length of its own text) and is redacted when it is raw.
func TestRedactRecordedHeader(t *testing.T) {
	const id = "0597a1b2-c3d4-e5f6-a7b8-c9d0e1f2a3b4"
	once := RedactHeader("Mcp-Session-Id", id)
	for _, c := range []struct{ name, value, want string }{
		{"Mcp-Session-Id", once, once},
		{"Mcp-Session-Id", id, once},
		{"Authorization", Redacted, Redacted},
		{"Authorization", "Bearer abc", Redacted},
		{"X-Note", "see ghp_0123456789abcdefghij0123456789abcdef", RedactHeader("X-Note", "see ghp_0123456789abcdefghij0123456789abcdef")},
		{"Content-Type", "application/json", "application/json"},
	} {
		if got := RedactRecordedHeader(c.name, c.value); got != c.want {
			t.Errorf("RedactRecordedHeader(%q, %q) = %q, want %q", c.name, c.value, got, c.want)
		}
	}
}
