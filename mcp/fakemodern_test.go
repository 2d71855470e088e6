package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The 2026-07-28 fake: stateless, every request must carry the _meta keys;
// tools exercise input_required rounds, progress, logging and subscriptions.

// mrtrState1 and mrtrState2 are requestState values whose JSON text uses
// escapes a re-encoder would change: the client must echo them byte for byte.
const (
	mrtrState1 = `"r1:\u00e9<&>\/\ud83d\ude00"`
	mrtrState2 = `"r2:\t\"x\""`
)

const modernDiscover = `{"resultType":"complete","supportedVersions":["2026-07-28"],` +
	`"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{},"completions":{}},` +
	`"instructions":"modern fake","ttlMs":0,"cacheScope":"public",` +
	`"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fake-modern","version":"1.0.0"}}}`

const serverInfoMeta = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fake-modern","version":"1.0.0"}}`

func init() {
	fakes["modern"] = modernServer
}

func textResult(text string, extra string) string {
	r := `{"resultType":"complete","content":[{"type":"text","text":` + string(quote(text)) + `}]`
	if extra != "" {
		r += "," + extra
	}
	return r + "," + serverInfoMeta + "}"
}

func modernServer(f *fake) {
	first32022 := f.arg == "first-32022"
	listenID := json.RawMessage(nil)
	for m := f.read(); m != nil; m = f.read() {
		if m.isNotification() {
			if m.method == NotificationCancelled && listenID != nil && string(m.param("requestId")) == string(listenID) {
				f.reply(&msg{id: listenID}, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":`+string(listenID)+`}}`)
				listenID = nil
			}
			continue
		}
		if !m.isRequest() {
			continue
		}
		meta := m.meta()
		v, _ := stringMember(meta, MetaProtocolVersion)
		if v == "" {
			f.fail(m, CodeMethodNotFound, "Method not found", "") // an initialize-era request
			continue
		}
		if !meta.has(MetaClientCapabilities) {
			f.fail(m, CodeInvalidParams, "missing clientCapabilities", "")
			continue
		}
		if v != Version20260728 || (first32022 && m.method != MethodDiscover) {
			first32022 = false
			f.fail(m, CodeUnsupportedVersion, "Unsupported protocol version",
				`{"supported":["2026-07-28"],"requested":`+string(quote(v))+`}`)
			continue
		}
		switch m.method {
		case MethodDiscover:
			f.reply(m, modernDiscover)
		case MethodListTools:
			if m.str("cursor") == "" {
				f.reply(m, `{"resultType":"complete","tools":[{"name":"echo","inputSchema":{"type":"object"},"x-extra":1}],"nextCursor":"p2","ttlMs":5,"cacheScope":"private"}`)
			} else {
				f.reply(m, `{"resultType":"complete","tools":[{"name":"mrtr","title":"Rounds","inputSchema":{"type":"object"}}]}`)
			}
		case MethodCallTool:
			modernTool(f, m, &listenID)
		case MethodReadResource:
			// One round of input before the contents, to show rounds are not
			// only for tools.
			if m.param("requestState") == nil {
				f.reply(m, `{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}},"requestState":"read"}`)
				continue
			}
			f.reply(m, `{"resultType":"complete","contents":[{"uri":`+string(quote(m.str("uri")))+`,"text":"roots were `+
				strings.ReplaceAll(string(m.param("inputResponses")), `"`, `'`)+`"}]}`)
		case MethodGetPrompt:
			f.reply(m, `{"resultType":"complete","description":"p","messages":[{"role":"user","content":{"type":"text","text":"hi `+m.str("name")+`"}}]}`)
		case MethodComplete:
			f.reply(m, `{"resultType":"complete","completion":{"values":["alpha","alps"],"total":2,"hasMore":false}}`)
		case MethodListen:
			var filter struct {
				ToolsListChanged      bool     `json:"toolsListChanged"`
				PromptsListChanged    bool     `json:"promptsListChanged"`
				ResourceSubscriptions []string `json:"resourceSubscriptions"`
			}
			_ = unmarshal(m.param("notifications"), &filter)
			acc := object{}
			if filter.ToolsListChanged {
				acc = acc.set("toolsListChanged", json.RawMessage(`true`))
			}
			if filter.ResourceSubscriptions != nil {
				acc = acc.set("resourceSubscriptions", mustMarshal(filter.ResourceSubscriptions))
			}
			listenID = m.id
			f.notify("notifications/subscriptions/acknowledged",
				`{"_meta":{"io.modelcontextprotocol/subscriptionId":`+string(m.id)+`},"notifications":`+string(acc.encode())+`}`)
		default:
			f.fail(m, CodeMethodNotFound, "Method not found: "+m.method, "")
		}
	}
}

// modernTool runs one tools/call of the 2026-07-28 fake.
func modernTool(f *fake, m *msg, listenID *json.RawMessage) {
	args, _ := parseObject(m.param("arguments"))
	state := m.param("requestState")
	responses, _ := parseObject(m.param("inputResponses"))
	switch m.str("name") {
	case "echo":
		msgText, _ := stringMember(args, "message")
		var keys []string
		for _, mem := range m.params {
			keys = append(keys, mem.name)
		}
		f.reply(m, textResult(msgText, `"structuredContent":{"meta":`+string(m.param("_meta"))+`,"keys":`+string(mustMarshal(keys))+`}`))
	case "mrtr":
		switch {
		case state == nil:
			f.reply(m, `{"resultType":"input_required","inputRequests":{`+
				`"q":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"2+2?"}}],"maxTokens":5}},`+
				`"login":{"method":"elicitation/create","params":{"mode":"form","message":"who?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}},`+
				`"requestState":`+mrtrState1+`}`)
		case string(state) == mrtrState1:
			if !responses.has("q") || !responses.has("login") || len(responses) != 2 {
				f.fail(m, CodeInvalidParams, "round 2 wants q and login, got "+string(m.param("inputResponses")), "")
				return
			}
			f.reply(m, `{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"},`+
				`"open":{"method":"elicitation/create","params":{"mode":"url","message":"open it","url":"https://example.com/x"}}},`+
				`"requestState":`+mrtrState2+`}`)
		case string(state) == mrtrState2:
			if !responses.has("r") || !responses.has("open") || len(responses) != 2 {
				f.fail(m, CodeInvalidParams, "round 3 wants r and open, got "+string(m.param("inputResponses")), "")
				return
			}
			f.reply(m, textResult("done", `"structuredContent":{"round3":`+string(m.param("inputResponses"))+`}`))
		default:
			f.fail(m, CodeInvalidParams, "requestState not echoed byte for byte: "+string(state), "")
		}
	case "state-only":
		if state == nil {
			f.reply(m, `{"resultType":"input_required","requestState":"busy"}`)
			return
		}
		if string(state) != `"busy"` || m.param("inputResponses") != nil {
			f.fail(m, CodeInvalidParams, "state-only retry wrong: "+string(m.line), "")
			return
		}
		f.reply(m, textResult("after load shedding", ""))
	case "forever":
		f.reply(m, `{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"again","requestedSchema":{"type":"object"}}}}}`)
	case "url-needed":
		f.reply(m, `{"resultType":"input_required","inputRequests":{"f":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}},`+
			`"u":{"method":"elicitation/create","params":{"mode":"url","message":"go","url":"https://example.com"}}},"requestState":"s"}`)
	case "unknown-entry":
		f.reply(m, `{"resultType":"input_required","inputRequests":{"x":{"method":"foo/bar","params":{}}}}`)
	case "bad-entry":
		f.reply(m, `{"resultType":"input_required","inputRequests":{"x":5}}`)
	case "missing-params":
		f.reply(m, `{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{"messages":[]}}}}`)
	case "weird":
		f.reply(m, `{"resultType":"weird","content":[]}`)
	case "no-type":
		f.reply(m, `{"content":[{"type":"text","text":"no resultType"}]}`)
	case "failing":
		f.reply(m, textResult("it broke", `"isError":true`))
	case "progress":
		tok := m.meta().get("progressToken")
		for i := 1; i <= 3; i++ {
			f.notify(NotificationProgress, fmt.Sprintf(`{"progressToken":%s,"progress":%d,"total":3,"message":"step %d"}`, tok, i, i))
		}
		f.reply(m, textResult("progressed", ""))
	case "log":
		if lvl, ok := stringMember(m.meta(), MetaLogLevel); ok {
			f.notify(NotificationMessage, `{"level":`+string(quote(lvl))+`,"logger":"fake","data":"logged at `+lvl+`"}`)
		}
		f.reply(m, textResult("logged", ""))
	case "change":
		if *listenID != nil {
			tag := `"_meta":{"io.modelcontextprotocol/subscriptionId":` + string(*listenID) + `}`
			f.notify(NotificationToolsChanged, `{`+tag+`}`)
			f.notify(NotificationResourceUpdated, `{`+tag+`,"uri":"file:///a/b.txt"}`)
		}
		f.reply(m, textResult("changed", ""))
	case "content":
		f.reply(m, `{"resultType":"complete","content":[`+
			`{"type":"text","text":"t","annotations":{"audience":["user"],"priority":0.5}},`+
			`{"type":"image","data":"aGk=","mimeType":"image/png"},`+
			`{"type":"audio","data":"aGk=","mimeType":"audio/wav"},`+
			`{"type":"resource_link","uri":"file:///x","name":"x","mimeType":"text/plain","size":12},`+
			`{"type":"resource","resource":{"uri":"file:///y","mimeType":"text/plain","text":"why"}},`+
			`{"type":"hologram","depth":3}],`+
			`"structuredContent":[1,2],"_meta":{"k":"v"}}`)
	default:
		f.fail(m, CodeInvalidParams, "unknown tool "+m.str("name"), "")
	}
}

// versionsArg parses "a,b,c" into a list.
func versionsArg(s string) []string {
	if s == "" {
		return nil
	}
	return slices.Collect(strings.SplitSeq(s, ","))
}
