package lint

import (
	"slices"
	"testing"
)

// meta26 is a 2026-07-28 request _meta with these client capabilities.
func meta26(caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

const goodTask = `"taskId":"t1","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":60000`

// The tasks extension's traffic rules: a task only for a client that
// declared the extension, only for tools/call, well-formed; tasks/get
// complete with its status's payload.
func TestTaskRules(t *testing.T) {
	declared := `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	for _, c := range []struct {
		name, req, res, want string
	}{
		{"task for a declaring client", `"method":"tools/call","params":{"name":"x",` + meta26(declared) + `}`, `{"resultType":"task",` + goodTask + `}`, ""},
		{"task for a client that did not declare", `"method":"tools/call","params":{"name":"x",` + meta26(`{}`) + `}`, `{"resultType":"task",` + goodTask + `}`, "tasks.declared-only"},
		{"task answering prompts/get", `"method":"prompts/get","params":{"name":"x",` + meta26(declared) + `}`, `{"resultType":"task",` + goodTask + `}`, "tasks.create-result"},
		{"task without a taskId", `"method":"tools/call","params":{"name":"x",` + meta26(declared) + `}`, `{"resultType":"task","status":"working","createdAt":"a","lastUpdatedAt":"b","ttlMs":null}`, "tasks.create-result"},
		{"task with an unknown status", `"method":"tools/call","params":{"name":"x",` + meta26(declared) + `}`, `{"resultType":"task","taskId":"t","status":"done","createdAt":"a","lastUpdatedAt":"b","ttlMs":null}`, "tasks.create-result"},
		{"tasks/get completed", `"method":"tasks/get","params":{"taskId":"t1",` + meta26(declared) + `}`, `{"resultType":"complete",` + goodTask[:len(goodTask)-len(`,"ttlMs":60000`)] + `,"ttlMs":null,"status":"completed","result":{"content":[]}}`, ""},
		{"tasks/get completed without result", `"method":"tasks/get","params":{"taskId":"t1",` + meta26(declared) + `}`, `{"resultType":"complete","taskId":"t1","status":"completed","createdAt":"a","lastUpdatedAt":"b","ttlMs":1}`, "tasks.get-result"},
		{"tasks/get as a task", `"method":"tasks/get","params":{"taskId":"t1",` + meta26(declared) + `}`, `{"resultType":"task",` + goodTask + `}`, "tasks.create-result"},
		{"tasks/get without resultType complete", `"method":"tasks/get","params":{"taskId":"t1",` + meta26(declared) + `}`, `{"resultType":"input_required",` + goodTask + `}`, "tasks.get-result"},
	} {
		fs := feed(t, `>{"jsonrpc":"2.0","id":1,`+c.req+`}`, `<{"jsonrpc":"2.0","id":1,"result":`+c.res+`}`)
		got := ids(fs)
		task := slices.DeleteFunc(slices.Clone(got), func(id string) bool { return id[:6] != "tasks." })
		switch {
		case c.want == "" && len(task) > 0:
			t.Errorf("%s: %v", c.name, fs)
		case c.want != "" && !slices.Contains(task, c.want):
			t.Errorf("%s: %v, want %s", c.name, got, c.want)
		}
	}
}

// 2026-07-28 retired -32002 and -32042 and reserves -32020…-32099 for the
// codes it defines; earlier eras may send -32002.
func TestErrorCodeRanges(t *testing.T) {
	for _, c := range []struct {
		version string
		code    string
		want    string
	}{
		{"2026-07-28", "-32002", "errors.retired-codes"},
		{"2026-07-28", "-32042", "errors.retired-codes"},
		{"2026-07-28", "-32050", "errors.reserved-range"},
		{"2026-07-28", "-32021", ""},
		{"2026-07-28", "-32602", ""},
		{"2026-07-28", "-32001", ""},
		{"2025-11-25", "-32002", ""},
	} {
		req := `>{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x://y","_meta":{"io.modelcontextprotocol/protocolVersion":"` + c.version + `"}}}`
		fs := feed(t, req, `<{"jsonrpc":"2.0","id":1,"error":{"code":`+c.code+`,"message":"m","data":{"requiredCapabilities":{}}}}`)
		got := ids(fs)
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Equal(got, []string{c.want}) {
			t.Errorf("%s on %s: %v, want %q", c.code, c.version, fs, c.want)
		}
	}
}

// A subscriptions/listen's terminal result after the client's cancel is
// how the subscription ends, however late it comes.
func TestListenEndsAfterCancel(t *testing.T) {
	listen := `>{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + meta26(`{}`) + `}}`
	lines := []string{listen,
		`<{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"toolsListChanged":true}}}`,
		`>{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`,
		`>{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{` + meta26(`{}`) + `}}`,
		`<{"jsonrpc":"2.0","id":8,"result":{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"}}`,
		`<{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`,
	}
	if fs := feed(t, lines...); len(fs) != 0 {
		t.Errorf("findings %+v", fs)
	}
}
