package model

import (
	"slices"
	"strings"
	"testing"
)

// TestFilterTerms: each term of the traffic filter syntax, on the entries
// the traffic pane lists and on lines read on their own (a tap's
// breakpoints): the same syntax, the same answers.
func TestFilterTerms(t *testing.T) {
	lines := map[string]Entry{
		"call":   LineEntry(Out, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{}}}`)),
		"answer": LineEntry(In, []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Hello"}]}}`)),
		"error":  LineEntry(In, []byte(`{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found"}}`)),
		"note":   LineEntry(In, []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`)),
		"batch":  LineEntry(Out, []byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`)),
		"bad":    LineEntry(In, []byte(`not json`)),
	}
	for _, c := range []struct {
		filter string
		want   []string // the lines it matches, sorted
	}{
		{"", []string{"answer", "bad", "batch", "call", "error", "note"}},
		{"dir:out", []string{"batch", "call"}},
		{"dir:in", []string{"answer", "bad", "error", "note"}},
		{"kind:req", []string{"call"}},
		{"kind:error", []string{"error"}},
		{"kind:", []string{"answer", "bad", "batch", "call", "error", "note"}},
		{"method:TOOLS/", []string{"call"}},
		{"method:notif", []string{"note"}},
		{"id:7", []string{"answer", "call"}},
		{`id:"a"`, []string{"error"}},
		{"id:a", []string{"error"}},
		{"echo", []string{"call"}},         // the summary: the tool called
		{"hello", []string{"answer"}},      // the summary: the result's text
		{"not found", []string{"error"}},   // two words, both in the summary
		{"resp", []string{"answer"}},       // the kind's label
		{"note", []string{"note"}},         // the label alone (the name is "notification")
		{"bad", []string{"bad"}},           // the label alone ("invalid")
		{"err", []string{"error"}},         // the label, or the name
		{"batch", []string{"batch"}},       // the kind
		{"initialized", []string{"batch"}}, // a part of the batch, in its summary
		{"dir:in kind:resp", []string{"answer"}},
		{"dir:out method:tools/call id:8", nil},
		{"dir:up", nil}, // a value no line has matches nothing
	} {
		f, _ := ParseFilter(c.filter)
		var got []string
		for name, e := range lines {
			if f.Match(&e) {
				got = append(got, name)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("filter %q matches %v, want %v", c.filter, got, c.want)
		}
	}
}

// TestFilterParse: a term whose value no line can have is said (the tap
// refuses such a breakpoint; the traffic pane shows an empty list), and a
// filter says which directions it can match.
func TestFilterParse(t *testing.T) {
	for _, c := range []struct{ filter, err string }{
		{"dir:up", "dir:up"},
		{"kind:reply", "kind:reply"},
		{"dir:out kind:REQ method:x id:1 word", ""},
		{"", ""},
	} {
		_, err := ParseFilter(c.filter)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseFilter(%q) error = %v, want one naming %q", c.filter, err, c.err)
		}
	}
	for _, c := range []struct {
		filter string
		want   []Direction
	}{
		{"dir:out x", []Direction{Out}},
		{"x dir:in", []Direction{In}},
		{"kind:req", []Direction{Out, In}},
		{"dir:up", nil},
	} {
		f, _ := ParseFilter(c.filter)
		if got := f.Directions(); !slices.Equal(got, c.want) {
			t.Errorf("%q.Directions() = %v, want %v", c.filter, got, c.want)
		}
	}
	if f, _ := ParseFilter("  dir:out  x "); f.String() != "dir:out  x" || f.Empty() {
		t.Errorf("String = %q, Empty = %v", f.String(), f.Empty())
	}
	if f, _ := ParseFilter("   "); !f.Empty() {
		t.Error("a blank filter is not empty")
	}
}
