package app

import (
	"strings"
	"testing"
)

// MemoryVersion is the published @modelcontextprotocol/server-memory the
// host matrix is checked on.
const MemoryVersion = "2026.8.31"

// memoryTools are its tools, as it lists them.
var memoryTools = []string{"create_entities", "create_relations", "add_observations", "delete_entities",
	"delete_observations", "delete_relations", "read_graph", "search_nodes", "open_nodes"}

// TestHostMatrixRealMemory: `mcptui check --host all --model all` on the
// published server-memory prints the matrix, a column per host and model
// API and a row per tool; its one refusal is OpenAI strict mode's (no
// "additionalProperties": false on its objects), which fails the check.
func TestHostMatrixRealMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("real servers: not in -short")
	}
	srv := npmServer(t, "@modelcontextprotocol/server-memory", MemoryVersion)
	code, out := runApp(t, []string{"MEMORY_FILE_PATH=" + t.TempDir() + "/memory.jsonl"},
		append([]string{"check", "--host", "all", "--model", "all"}, srv...)...)
	if code == 0 {
		t.Errorf("exit 0; want non-zero: OpenAI strict mode refuses its schemas\n%s", out)
	}
	_, matrix, ok := strings.Cut(out, "matrix (✗ refused, ✓ within every recorded limit, - no limit recorded):\n")
	if !ok {
		t.Fatalf("no matrix:\n%s", out)
	}
	lines := strings.Split(matrix, "\n")
	head := strings.Fields(lines[0])
	want := []string{"tool", "claude-code", "claude-desktop", "vscode", "cursor", "gemini-cli", "chatgpt", "anthropic", "openai", "openai-strict", "gemini", "bedrock"}
	if strings.Join(head, " ") != strings.Join(want, " ") {
		t.Fatalf("matrix head %q; want %q", head, want)
	}
	strict := 0
	for i, name := range memoryTools {
		row := strings.Fields(lines[1+i])
		if len(row) != len(head) || row[0] != name {
			t.Errorf("matrix row %d: %q; want %s and a mark per column", i+1, lines[1+i], name)
			continue
		}
		for j, mark := range row[1:] {
			target := head[1+j]
			switch {
			case target == "openai-strict":
				if mark != "✗" {
					t.Errorf("%s under %s: %s; want ✗", name, target, mark)
				}
				strict++
			case mark == "✗":
				t.Errorf("%s under %s: ✗; only openai-strict refuses it", name, target)
			}
		}
	}
	if strict != len(memoryTools) {
		t.Errorf("%d strict-mode refusals; want one per tool", strict)
	}
	if strings.HasPrefix(lines[1+len(memoryTools)], "tool ") || !strings.HasPrefix(lines[1+len(memoryTools)], "not judged: ") {
		t.Errorf("after the rows: %q; want the matrix to end with its %d tools", lines[1+len(memoryTools)], len(memoryTools))
	}
}
