package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/model"
)

// fuzzRecording is a small recording with a tool call and its progress.
const fuzzRecording = `{"type":"header","format":"mcptui-recording","version":1,"t":"2026-01-01T00:00:00Z","ms":0,"command":"srv","args":[],"secrets":false,"settings":{}}
{"type":"sent","t":"2026-01-01T00:00:00Z","ms":1,"size":60,"msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}
{"type":"received","t":"2026-01-01T00:00:00Z","ms":2,"size":40,"msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s"}}}}
{"type":"sent","t":"2026-01-01T00:00:00Z","ms":3,"size":60,"msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":5}}}}
{"type":"received","t":"2026-01-01T00:00:00Z","ms":4,"size":40,"msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":5,"progress":1}}}
{"type":"received","t":"2026-01-01T00:00:00Z","ms":5,"size":40,"msg":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}}
{"type":"end","t":"2026-01-01T00:00:00Z","ms":6}
`

// Whatever a client sends, replay --serve answers with JSON lines only and
// returns at the end of its input.
func FuzzServe(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":"t"}}}` + "\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":[1],"method":"initialize"}` + "\n" + `not json` + "\n"))
	f.Add([]byte(strings.Repeat("x", 3000) + "\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n\n\r\n"))
	rec, err := record.Read(strings.NewReader(fuzzRecording))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		var out bytes.Buffer
		if err := Serve(context.Background(), rec, 1024, bytes.NewReader(input), &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if !json.Valid(sc.Bytes()) {
				t.Fatalf("wrote a line that is not JSON: %q", sc.Bytes())
			}
		}
	})
}

// Whatever a recording holds, turning it into the inspector's events and
// folding them into a model never panics.
func FuzzEvents(f *testing.F) {
	f.Add([]byte(fuzzRecording))
	f.Add([]byte(strings.Replace(fuzzRecording, `"size":40,"msg":{"jsonrpc":"2.0","id":2`, `"size":40,"b64":"/w==","x":{"id":2`, 1)))
	f.Add([]byte(strings.SplitAfterN(fuzzRecording, "\n", 2)[0] + `{"type":"exit","status":"exit status 1"}` + "\n" + `{"type":"discarded","size":99,"reason":"too long"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := record.ReadLimited(bytes.NewReader(data), 4096)
		if err != nil {
			return
		}
		evs := Events(rec)
		sess := model.New(Config(rec, 1<<20))
		for _, ev := range evs {
			sess.Apply(ev)
		}
		b := NewBackend(evs)
		b.Close()
	})
}
