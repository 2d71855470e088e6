package schemaform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusTool is one tools/list entry of a recorded server.
type corpusTool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// corpusSchemas returns every schema recorded from real servers (tool
// input and output schemas, elicitation requested schemas), by name.
func corpusSchemas(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	dirs, err := filepath.Glob("testdata/corpus/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, dir := range dirs {
		server := filepath.Base(dir)
		b, err := os.ReadFile(filepath.Join(dir, "tools.json"))
		if err != nil {
			t.Fatal(err)
		}
		var tools []corpusTool
		if err := json.Unmarshal(b, &tools); err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools {
			out[server+"/"+tool.Name+"/input"] = tool.InputSchema
			if tool.OutputSchema != nil {
				out[server+"/"+tool.Name+"/output"] = tool.OutputSchema
			}
		}
		elicits, _ := filepath.Glob(filepath.Join(dir, "elicit-*.json"))
		for _, e := range elicits {
			b, err := os.ReadFile(e)
			if err != nil {
				t.Fatal(err)
			}
			var p struct {
				RequestedSchema json.RawMessage `json:"requestedSchema"`
			}
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			out[server+"/"+strings.TrimSuffix(filepath.Base(e), ".json")] = p.RequestedSchema
		}
	}
	hard, _ := filepath.Glob("testdata/hard/*.json")
	for _, h := range hard {
		b, err := os.ReadFile(h)
		if err != nil {
			t.Fatal(err)
		}
		out["hard/"+strings.TrimSuffix(filepath.Base(h), ".json")] = b
	}
	return out
}

// TestCorpusCompiles: every recorded schema gives a form and a validator,
// its defaults build an instance, and that instance fills a fresh value
// back to the same JSON.
func TestCorpusCompiles(t *testing.T) {
	schemas := corpusSchemas(t)
	if len(schemas) < 50 {
		t.Fatalf("only %d schemas in the corpus", len(schemas))
	}
	for name, s := range schemas {
		t.Run(name, func(t *testing.T) {
			f, err := Compile(s)
			if err != nil {
				t.Fatal(err)
			}
			if f.ValidatorErr != nil && !strings.HasPrefix(name, "hard/refs") {
				t.Fatalf("validator: %v", f.ValidatorErr)
			}
			v := f.New()
			inst, errs := v.JSON()
			if len(errs) > 0 {
				t.Fatalf("defaults do not build: %v", errs)
			}
			again := f.New()
			if err := again.Fill(inst); err != nil {
				t.Fatalf("Fill(%s): %v", inst, err)
			}
			if back, _ := again.JSON(); string(back) != string(inst) {
				t.Fatalf("round trip:\n%s\n%s", inst, back)
			}
		})
	}
}

// TestCorpusDefaultsValid: tools whose required arguments all have
// defaults can be called with the untouched form.
func TestCorpusDefaultsValid(t *testing.T) {
	valid := []string{
		"demo/elicit_form/input", "demo/sample/input", "demo/slow/input", "demo/large/input", "demo/progress/input",
		"demo/bump/input", "demo/structured/input", "everything/get-resource-links/input", "everything/get-env/input",
		"everything/trigger-long-running-operation/input",
	}
	invalid := map[string][]string{
		"demo/echo/input":                               {"/message"},
		"everything/echo/input":                         {"/message"},
		"everything/get-sum/input":                      {"/a", "/b"},
		"everything/elicit-trigger-elicitation-request": {"/name"},
		"demo/elicit-elicit_form":                       {"/email"},
	}
	schemas := corpusSchemas(t)
	for _, name := range valid {
		f, _ := Compile(schemas[name])
		if inst, errs := f.Submit(f.New()); len(errs) > 0 {
			t.Errorf("%s: %s: %v", name, inst, errs)
		}
	}
	for name, paths := range invalid {
		f, _ := Compile(schemas[name])
		_, errs := f.Submit(f.New())
		for _, p := range paths {
			if len(errs.At(p)) == 0 {
				t.Errorf("%s: no error at %q in %v", name, p, errs)
			}
		}
	}
}
