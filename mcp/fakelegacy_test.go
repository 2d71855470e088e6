package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"
)

// The initialize-era fakes: they differ only in how they treat the
// server/discover probe (and anything else before initialize).

func init() {
	fakes["legacy-32601"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool { f.fail(m, CodeMethodNotFound, "Method not found", ""); return true })
	}
	fakes["legacy-garbage"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool {
			if f.arg == "string" {
				f.reply(m, `"hello"`)
			} else {
				f.reply(m, `{"hello":"world","supportedVersions":"all of them"}`)
			}
			return true
		})
	}
	fakes["legacy-junk"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool { f.writeLine([]byte("this is not JSON")); return true })
	}
	fakes["legacy-silent"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool { return true })
	}
	// A server that keeps running after EOF until it is signalled.
	fakes["legacy-stubborn"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool { f.fail(m, CodeMethodNotFound, "Method not found", ""); return true })
		time.Sleep(time.Hour)
	}
	fakes["legacy-exit"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool { os.Exit(3); return false })
	}
	// A server that claims 2026-07-28 in discover, then changes its mind.
	fakes["changes-mind"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool {
			if m.method == MethodDiscover {
				f.reply(m, modernDiscover)
			} else {
				f.fail(m, CodeUnsupportedVersion, "Unsupported protocol version", `{"supported":["2025-11-25"],"requested":"2026-07-28"}`)
			}
			return true
		})
	}
	fakes["probe-32022"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool {
			f.fail(m, CodeUnsupportedVersion, "Unsupported protocol version",
				`{"supported":`+string(mustMarshal(versionsArg(f.arg)))+`,"requested":"2026-07-28"}`)
			return true
		})
	}
}

// legacyServer serves the initialize era. preInit handles any request that
// comes before initialize (the probe); it returns false to stop serving.
func legacyServer(f *fake, preInit func(m *msg) bool) {
	initialized := false
	var initParams json.RawMessage
	level := ""
	for m := f.read(); m != nil; m = f.read() {
		if !m.isRequest() {
			continue
		}
		if m.method == MethodInitialize {
			initialized = true
			initParams = slices.Clone(m.line)
			pv := m.str("protocolVersion")
			if !KnownVersion(pv) || Stateless(pv) {
				pv = Version20251125
			}
			switch f.arg {
			case "answer-2024":
				pv = "2024-11-05"
			case "answer-2024-10-07":
				pv = "2024-10-07"
			case "answer-2023":
				pv = "2023-01-01"
			}
			caps := `{"tools":{"listChanged":true},` +
				`"resources":{"subscribe":true,"listChanged":true},"prompts":{},"logging":{},"completions":{}}`
			switch f.arg {
			case "bare":
				caps = `{"tools":{}}`
			case "no-caps":
				caps = `{}`
			}
			f.reply(m, `{"protocolVersion":`+string(quote(pv))+`,"capabilities":`+caps+`,`+
				`"serverInfo":{"name":"fake-legacy","version":"0.9.0","title":"Legacy"},"instructions":"legacy fake"}`)
			continue
		}
		if !initialized {
			if !preInit(m) {
				return
			}
			continue
		}
		switch m.method {
		case MethodPing:
			if f.arg == "batch-ping" {
				// A 2025-03-26 JSON-RPC batch: a log message and the answer.
				f.writeLine([]byte(`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched"}},` +
					`{"jsonrpc":"2.0","id":` + string(m.id) + `,"result":{}}]`))
				continue
			}
			f.reply(m, `{}`)
		case MethodListTools:
			cursor := m.str("cursor")
			next := map[string]string{"": "c1", "c1": "c2"}[cursor]
			if f.arg == "repeat" && cursor == "c1" {
				next = "c1"
			}
			page := `{"tools":[{"name":"t` + cursor + `","inputSchema":{"type":"object"}}]`
			if next != "" {
				page += `,"nextCursor":"` + next + `"`
			}
			f.reply(m, page+"}")
		case MethodSetLevel:
			level = m.str("level")
			f.reply(m, `{}`)
			f.notify(NotificationMessage, `{"level":"info","data":"level set to `+level+`"}`)
		case MethodSubscribe, MethodUnsubscribe:
			f.reply(m, `{}`)
		case MethodCallTool:
			legacyTool(f, m, initParams)
		default:
			f.fail(m, CodeMethodNotFound, "Method not found: "+m.method, "")
		}
	}
}

func legacyTool(f *fake, m *msg, initParams json.RawMessage) {
	switch m.str("name") {
	case "whoami":
		f.reply(m, `{"content":[],"structuredContent":{"initialize":`+string(initParams)+`,"call":`+string(m.line)+`}}`)
	case "ask-all":
		sampling := f.ask(`100`, MethodCreateMessage, `{"messages":[{"role":"user","content":{"type":"text","text":"2+2?"}}],"maxTokens":5}`)
		form := f.ask(`"e1"`, MethodElicit, `{"message":"name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`)
		url := f.ask(`101`, MethodElicit, `{"mode":"url","message":"open","url":"https://example.com/a","elicitationId":"x"}`)
		roots := f.ask(`102`, MethodListRoots, ``)
		ping := f.ask(`103`, MethodPing, ``)
		f.reply(m, `{"content":[],"structuredContent":{"sampling":`+sampling.response()+`,"form":`+form.response()+
			`,"url":`+url.response()+`,"roots":`+roots.response()+`,"ping":`+ping.response()+`}}`)
	case "ask-bad":
		noMax := f.ask(`200`, MethodCreateMessage, `{"messages":[]}`)
		mode := f.ask(`201`, MethodElicit, `{"mode":"video","message":"m"}`)
		notObject := f.ask(`202`, MethodElicit, `[1]`)
		unknown := f.ask(`203`, "foo/bar", `{}`)
		noSchema := f.ask(`204`, MethodElicit, `{"message":"m"}`)
		f.reply(m, `{"content":[],"structuredContent":{"noMax":`+noMax.response()+`,"mode":`+mode.response()+
			`,"notObject":`+notObject.response()+`,"unknown":`+unknown.response()+`,"noSchema":`+noSchema.response()+`}}`)
	case "ask-invalid":
		form := f.ask(`300`, MethodElicit, `{"message":"m","requestedSchema":{"type":"object"}}`)
		f.reply(m, `{"content":[],"structuredContent":{"form":`+form.response()+`}}`)
	case "touch":
		f.notify(NotificationResourceUpdated, `{"uri":"file:///a/b.txt"}`)
		f.notify(NotificationResourceUpdated, `{"uri":"file:///other"}`)
		f.notify(NotificationToolsChanged, `{}`)
		f.notify(NotificationMessage, `{"level":"warning","data":{"n":1}}`)
		f.reply(m, `{"content":[{"type":"text","text":"touched"}]}`)
	case "progress":
		tok := m.meta().get("progressToken")
		for i := 1; i <= 3; i++ {
			f.notify(NotificationProgress, fmt.Sprintf(`{"progressToken":%s,"progress":%d,"total":3}`, tok, i))
		}
		f.reply(m, `{"content":[{"type":"text","text":"progressed"}]}`)
	case "failing":
		f.reply(m, `{"content":[{"type":"text","text":"bad input"}],"isError":true}`)
	default:
		f.fail(m, CodeInvalidParams, "unknown tool "+m.str("name"), "")
	}
}
