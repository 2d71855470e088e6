package catalog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// manyTools are n tools named tool_00000… with a title and a
// description, as a large server lists them.
func manyTools(n int) []mcp.Tool {
	out := make([]mcp.Tool, n)
	for i := range out {
		name := fmt.Sprintf("tool_%05d", i)
		desc := fmt.Sprintf("Does thing number %d to the Widget it is given, and says how it went.", i)
		raw, _ := json.Marshal(map[string]any{"name": name, "title": "Tool " + strconv.Itoa(i), "description": desc, "inputSchema": map[string]any{"type": "object"}})
		out[i] = mcp.Tool{Name: name, Title: "Tool " + strconv.Itoa(i), Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`), Raw: raw}
	}
	return out
}

// bigCatalog is a catalog listing n tools.
func bigCatalog(b testing.TB, n int) *Model {
	f := newFake("demo")
	f.tools = manyTools(n)
	m := newTest(b, f, nil)
	// The listing itself, not screentest.Drain, which gives up on a Cmd
	// slower than CmdWait (listing 50,000 tools on a busy machine is).
	feed(m, m.refresh(Tools)())
	if got := len(m.lists[Tools].items); got != n {
		b.Fatalf("listed %d tools; want %d", got, n)
	}
	return m
}

var catalogSizes = []int{1_000, 10_000, 50_000}

// BenchmarkCatalogDown is one Down (or Up) key on the tools list and the
// frame drawn after it.
func BenchmarkCatalogDown(b *testing.B) {
	for _, n := range catalogSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			m := bigCatalog(b, n)
			down, up := screentest.Key("down"), screentest.Key("up")
			m.View(120, 40)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				k := down
				if i%2 == 1 {
					k = up
				}
				m.Update(k)
				m.View(120, 40)
			}
		})
	}
}

// BenchmarkCatalogFilter is one keystroke that extends the filter
// ("number 4" → "number 42", which match a ninth and a ninetieth of the
// descriptions at every size) and the frame after it, then the backspace
// that takes it back and its frame: two keys an iteration.
func BenchmarkCatalogFilter(b *testing.B) {
	for _, n := range catalogSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			m := bigCatalog(b, n)
			press(m, "/")
			typeIn(m, "number 4")
			m.View(120, 40)
			two, back := screentest.Type("2")[0], screentest.Key("backspace")
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				m.Update(two)
				m.View(120, 40)
				m.Update(back)
				m.View(120, 40)
			}
		})
	}
}

// BenchmarkCatalogFrame is one frame of the tools list with nothing
// changed.
func BenchmarkCatalogFrame(b *testing.B) {
	for _, n := range catalogSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			m := bigCatalog(b, n)
			press(m, "down", "down")
			m.View(120, 40)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				m.View(120, 40)
			}
		})
	}
}
