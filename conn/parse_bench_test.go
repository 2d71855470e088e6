package conn

import (
	"testing"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// BenchmarkParseMessage measures the decoding of one response line: the
// strict validity check and the scan for its members.
func BenchmarkParseMessage(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"hello \"world\" with some escaped text"}],"structuredContent":{"a":1,"b":[1,2,3]},"isError":false}}`)
	b.ReportAllocs()
	for b.Loop() {
		m, err := parseMessage(line)
		if err != nil || m.id == nil {
			b.Fatal(err)
		}
		_ = jsonscan.Member(m.result, "isError")
	}
}
