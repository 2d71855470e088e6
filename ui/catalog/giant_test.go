package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// giantTools are a server's worst: a tool with 100,000 properties, one
// nested 4,990 deep, and one with a 15 MiB description.
func giantTools() []mcp.Tool {
	var wide strings.Builder
	wide.WriteString(`{"type":"object","properties":{`)
	for i := range 100_000 {
		if i > 0 {
			wide.WriteByte(',')
		}
		fmt.Fprintf(&wide, `"p%d":{"type":"string"}`, i)
	}
	wide.WriteString(`}}`)
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 4990) + `{"type":"string"}` + strings.Repeat(`}}`, 4990)
	desc := strings.Repeat("A line of a very long description, again and again.\n", 15<<20/52)
	tool := func(name, desc, schema string) mcp.Tool {
		raw, _ := json.Marshal(map[string]any{"name": name, "description": desc, "inputSchema": json.RawMessage(schema)})
		return mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(schema), Raw: raw}
	}
	return []mcp.Tool{
		tool("wide", "100k properties", wide.String()),
		tool("deep", "4990 levels", deep),
		tool("verbose", desc, `{"type":"object"}`),
	}
}

// TestGiantSchemasBuildOffTheUI: enter on a tool with a huge schema
// returns at once with the form still building, keys are answered
// meanwhile, and the form that arrives is the raw JSON editor saying why.
func TestGiantSchemasBuildOffTheUI(t *testing.T) {
	f := newFake("demo")
	f.tools = giantTools()
	m := newTest(t, f, nil)
	for _, c := range []struct{ name, why string }{
		{"wide", "more than 2000 objects"},
		{"deep", "deeper than 64 levels"},
	} {
		selectTool(m, c.name)
		cmd := m.Update(screentest.Key("enter"))
		if m.page != pageList || !strings.Contains(m.notice, "building the form for "+c.name) {
			t.Fatalf("%s: enter built the form on the UI goroutine (page %v, %q)", c.name, m.page, m.notice)
		}
		press(m, "J") // a key while it builds
		if m.scroll != 1 {
			t.Fatalf("%s: a key while the form builds was not answered", c.name)
		}
		// The Cmd itself, to see how long it took.
		start := time.Now()
		msg := cmd()
		t.Logf("%s: the form built in %v", c.name, time.Since(start))
		feed(m, msg)
		if m.page != pageForm {
			t.Fatalf("%s: the form did not open: %q", c.name, m.notice)
		}
		mustContain(t, m, c.why, "type the arguments as JSON")
		press(m, "esc", "esc")
		if m.page != pageList {
			t.Fatalf("%s: esc did not leave the form", c.name)
		}
	}
	// A form that arrives after the person moved on is dropped.
	selectTool(m, "wide")
	cmd := m.Update(screentest.Key("enter"))
	press(m, "down")
	feed(m, cmd())
	if m.page != pageList {
		t.Fatal("a form opened on an entry no longer selected")
	}
}

// TestHugeDescriptionIsDrawnOnce: a 15 MiB description shows its start
// and its size, and is not rendered again for every frame.
func TestHugeDescriptionIsDrawnOnce(t *testing.T) {
	f := newFake("demo")
	f.tools = giantTools()
	m := newTest(t, f, nil)
	selectTool(m, "verbose")
	mustContain(t, m, "A line of a very long description", "(15.0 MiB of text; the first 64.0 KiB shown)")
	first := m.detailsCache.lines
	press(m, "J")
	screen(m)
	if len(first) == 0 || &m.detailsCache.lines[0] != &first[0] {
		t.Fatal("the details were drawn again for a key that changed nothing in them")
	}
	if n := len(first); n > 3000 {
		t.Fatalf("the details have %d lines: the whole description was rendered", n)
	}
	start := time.Now()
	press(m, "J")
	screen(m)
	t.Logf("a key with a 15 MiB description selected took %v", time.Since(start))
}
