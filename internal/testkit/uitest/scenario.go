package uitest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcptui/mcptui/model"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Epoch is the fixed clock of scripted sessions.
var Epoch = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// At is Epoch plus seconds.
func At(sec float64) time.Time { return Epoch.Add(time.Duration(sec * float64(time.Second))) }

func out(sec float64, line string) model.Wire {
	return model.Wire{Stamp: model.Stamp{Time: At(sec)}, Dir: model.Out, Line: []byte(line), Size: len(line)}
}

func in(sec float64, line string) model.Wire {
	return model.Wire{Stamp: model.Stamp{Time: At(sec)}, Dir: model.In, Line: []byte(line), Size: len(line)}
}

// SamplingParams is the sampling request of the scripted session.
const SamplingParams = `{"messages":[{"role":"user","content":{"type":"text","text":"Summarize the build log in one sentence."}}],"systemPrompt":"You are a terse assistant.","maxTokens":200,"modelPreferences":{"hints":[{"name":"claude"}],"speedPriority":0.7}}`

// ElicitParams is the elicitation request of the scripted session.
const ElicitParams = `{"message":"Which environment should the deploy target?","requestedSchema":{"type":"object","properties":{"env":{"type":"string","enum":["staging","production"],"default":"staging"},"confirm":{"type":"boolean"}},"required":["env"]}}`

// Session is a scripted session at At(30): a ready server, calls in flight
// with and without progress, a finished and a failed call, a sampling
// request and an elicitation waiting, a subscription with events, stderr,
// a discarded line, and hostile escape sequences in a tool name, a log line
// and stderr. Wall-clock "now" for drawing it is At(30).
func Session() []model.Event {
	evs := []model.Event{
		model.Started{Stamp: model.Stamp{Time: At(0)}, Command: []string{"./weather-server", "--verbose"}, PID: 4242},
		model.Negotiating{Stamp: model.Stamp{Time: At(0.1)}, Step: "probe server/discover"},
		out(0.1, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`),
		in(0.2, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`),
		out(0.2, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{},"elicitation":{}},"clientInfo":{"name":"mcptui","version":"dev"}}}`),
		in(0.3, `{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{},"resources":{"subscribe":true}},"serverInfo":{"name":"weather","version":"1.4.2"}}}`),
		out(0.3, `{"jsonrpc":"2.0","method":"notifications/initialized"}`),
		model.Ready{Stamp: model.Stamp{Time: At(0.3)}, ServerName: "weather", ServerVersion: "1.4.2", Protocol: protocol.Rev20251125, PID: 4242},
		model.Stderr{Stamp: model.Stamp{Time: At(0.3)}, Line: "weather: listening on stdio"},
		model.Wire{Stamp: model.Stamp{Time: At(0.4)}, Dir: model.In, Line: []byte("Server starting... (banner on stdout)"), Size: 37, Discarded: true, Reason: "not JSON"},
		out(2, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`),
		in(2.1, `{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"forecast","description":"Weather forecast"},{"name":"evil\u001b[2Jtool","description":"x"}]}}`),
		out(5, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo"},"_meta":{"progressToken":4}}}`),
		in(9, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":4,"progress":3,"total":10,"message":"fetching stations"}}`),
		out(12, `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file:///var/log/build.log","_meta":{"progressToken":5}}}`),
		in(13, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":5,"progress":512}}`),
		out(14, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"evil\u001b]0;pwned\u0007","arguments":{}}}`),
		in(15, `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Unknown tool"}}`),
		out(16, `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"notifications":{"resources":["file:///var/log/build.log"],"toolsListChanged":true}}}`),
		in(16.1, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resources":["file:///var/log/build.log"]},"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`),
		in(20, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///var/log/build.log","_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`),
		in(21, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"fetch","data":"station \u001b[31mOSLO\u001b[0m slow \u202etxt.exe"}}`),
		model.Stderr{Stamp: model.Stamp{Time: At(22)}, Line: "warn: slow upstream \x1b]52;c;cm0gLXJmIH4=\x07 retrying"},
		in(24, `{"jsonrpc":"2.0","id":"s-1","method":"sampling/createMessage","params":`+SamplingParams+`}`),
		model.QuestionAsked{Stamp: model.Stamp{Time: At(24)}, RequestID: json.RawMessage(`"s-1"`), Method: protocol.MethodCreateMessage, Params: json.RawMessage(SamplingParams)},
		in(26, `{"jsonrpc":"2.0","id":"e-2","method":"elicitation/create","params":`+ElicitParams+`}`),
		model.QuestionAsked{Stamp: model.Stamp{Time: At(26)}, RequestID: json.RawMessage(`"e-2"`), Method: protocol.MethodElicit, Params: json.RawMessage(ElicitParams)},
	}
	for i := range 6 {
		evs = append(evs, in(27+float64(i)*0.1, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"tick %d"}}`, i)))
	}
	return evs
}

// Huge returns a response line of about n bytes to request id 99, and
// the request it answers.
func Huge(n int) []model.Event {
	blob := strings.Repeat("QUJD", n/4)
	return []model.Event{
		out(28, `{"jsonrpc":"2.0","id":99,"method":"resources/read","params":{"uri":"blob://big"}}`),
		in(29, `{"jsonrpc":"2.0","id":99,"result":{"contents":[{"uri":"blob://big","mimeType":"application/octet-stream","blob":"`+blob+`"}]}}`),
	}
}
