package mcp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Tests of the parts that need no process.

func TestParseObjectKeepsBytes(t *testing.T) {
	raw := json.RawMessage(` {"a" : "\u00e9\/" , "b":[1, 2],"c":{"d":null}} `)
	o, err := parseObject(raw)
	if err != nil {
		t.Fatal(err)
	}
	if string(o.get("a")) != `"\u00e9\/"` || string(o.get("b")) != `[1, 2]` || string(o.get("c")) != `{"d":null}` {
		t.Errorf("members %q %q %q", o.get("a"), o.get("b"), o.get("c"))
	}
	if got := string(o.set("b", nil).set("z", quote("<&>")).encode()); got != `{"a":"\u00e9\/","c":{"d":null},"z":"<&>"}` {
		t.Errorf("rebuilt %s", got)
	}
	for _, bad := range []string{`{"a":1,"a":2}`, `[1]`, `{"a":1} {}`, `{"a":`, `"s"`} {
		if _, err := parseObject(json.RawMessage(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if o, err := parseObject(json.RawMessage(`null`)); err != nil || o != nil {
		t.Errorf("null: %v %v", o, err)
	}
}

func TestMergeDeep(t *testing.T) {
	got, err := mergeDeep(json.RawMessage(`{"a":{"x":1,"y":2},"b":1}`), json.RawMessage(`{"a":{"y":3,"z":{}},"c":[1]}`))
	if err != nil || string(got) != `{"a":{"x":1,"y":3,"z":{}},"b":1,"c":[1]}` {
		t.Errorf("%s %v", got, err)
	}
	if got, _ := mergeDeep(json.RawMessage(`{"a":1}`), nil); string(got) != `{"a":1}` {
		t.Errorf("nil over: %s", got)
	}
}

func TestToRaw(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, ""},
		{"s", `"s"`},
		{json.RawMessage(nil), ""},
		{json.RawMessage(` {"k": "\u0041"}`), ` {"k": "\u0041"}`},
	} {
		got, err := toRaw(tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("toRaw(%v) = %s, %v", tc.in, got, err)
		}
	}
	if got, _ := toRaw(map[string]int{"b": 1, "a": 2}); string(got) != `{"a":2,"b":1}` {
		t.Errorf("map not deterministic: %s", got)
	}
	if _, err := toRaw(json.RawMessage(`{bad`)); err == nil {
		t.Error("invalid JSON accepted")
	}
}

func TestOptionsDefaults(t *testing.T) {
	o, err := Options{}.normalized()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(o.Versions, ",") != "2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05" || o.ProbeTimeout != DefaultProbeTimeout ||
		o.MaxInputRounds != 10 || o.MaxPages != 1000 || o.ClientInfo.Name != "mcptui" || o.ClientInfo.Version == "" {
		t.Errorf("defaults %+v", o)
	}
	old := ClientVersion
	ClientVersion = "1.2.3"
	defer func() { ClientVersion = old }()
	if DefaultClientInfo().Version != "1.2.3" {
		t.Error("ClientVersion not used")
	}
	for _, bad := range []Options{
		{Versions: []string{}},
		{Versions: []string{Version20251125, Version20251125}},
		{ProbeTimeout: -1},
		{MaxInputRounds: -1},
		{MaxPages: -1},
		{Capabilities: json.RawMessage(`1`)},
	} {
		if _, err := bad.normalized(); err == nil || asError(err).Code != CodeInvalidParams {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

func TestClientCapabilities(t *testing.T) {
	a := newAnswers()
	o := Options{Sampling: a, ElicitURL: a, Capabilities: json.RawMessage(`{"sampling":{"tools":{}},"extensions":{"io.x/y":{}}}`)}
	if got := string(o.clientCapabilities(Version20260728)); got != `{"sampling":{"tools":{}},"elicitation":{"url":{}},"extensions":{"io.x/y":{}}}` {
		t.Errorf("2026-07-28: %s", got)
	}
	if got := string(o.clientCapabilities(Version20250618)); got != `{"sampling":{"tools":{}},"extensions":{"io.x/y":{}}}` {
		t.Errorf("2025-06-18 (no URL mode): %s", got)
	}
}

// Each era declares only what it defines: no elicitation before
// 2025-06-18, sampling.tools only from 2025-11-25, roots.listChanged only
// when asked for.
func TestClientCapabilitiesByEra(t *testing.T) {
	a := newAnswers()
	o := Options{Sampling: a, SamplingTools: true, ElicitForm: a, ElicitURL: a, Roots: a}
	want := map[string]string{
		Version20241105: `{"sampling":{},"roots":{}}`,
		Version20250326: `{"sampling":{},"roots":{}}`,
		Version20250618: `{"sampling":{},"elicitation":{},"roots":{}}`,
		Version20251125: `{"sampling":{"tools":{}},"elicitation":{"form":{},"url":{}},"roots":{}}`,
	}
	for v, w := range want {
		if got := string(o.clientCapabilities(v)); got != w {
			t.Errorf("%s: %s, want %s", v, got, w)
		}
	}
	o.RootsListChanged = true
	if got := string(o.clientCapabilities(Version20241105)); got != `{"sampling":{},"roots":{"listChanged":true}}` {
		t.Errorf("RootsListChanged: %s", got)
	}
}

func TestClassifyAndValidate(t *testing.T) {
	cases := []struct {
		method, params string
		kind           QuestionKind
		errPart        string
	}{
		{MethodCreateMessage, `{"messages":[],"maxTokens":1}`, KindSampling, ""},
		{MethodCreateMessage, `{"maxTokens":1}`, KindSampling, `"messages"`},
		{MethodElicit, `{"message":"m","requestedSchema":{}}`, KindElicitForm, ""},
		{MethodElicit, `{"mode":"form","message":"m"}`, KindElicitForm, "requestedSchema"},
		{MethodElicit, `{"mode":"url","message":"m","url":"u"}`, KindElicitURL, ""},
		{MethodElicit, `{"mode":"url","message":"m"}`, KindElicitURL, "A URL elicitation needs"},
		{MethodElicit, `{"mode":5}`, KindElicitForm, "Unknown elicitation mode 5"},
		{MethodElicit, ``, KindElicitForm, "params must be an object"},
		{MethodListRoots, ``, KindRoots, ""},
		{MethodListRoots, `"x"`, KindRoots, "params must be an object"},
		{"other", `{}`, 0, ""},
	}
	for _, tc := range cases {
		kind, _, err := classify(tc.method, json.RawMessage(tc.params))
		if kind != tc.kind || (tc.errPart == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.errPart)) {
			t.Errorf("%s %s: kind %v err %v", tc.method, tc.params, kind, err)
		}
	}
	answers := []struct {
		kind   QuestionKind
		answer string
		ok     bool
	}{
		{KindElicitForm, `{"action":"accept","content":{"a":1}}`, true},
		{KindElicitForm, `{"action":"decline"}`, true},
		{KindElicitForm, `{"action":"decline","content":{}}`, false},
		{KindElicitURL, `{"action":"cancel"}`, true},
		{KindElicitURL, `{"action":"ok"}`, false},
		{KindElicitForm, `{"action":"accept","content":[1]}`, false},
		{KindSampling, answerSampling, true},
		{KindSampling, `{"role":"assistant","content":[{"type":"text","text":"x"}],"model":"m"}`, true},
		{KindSampling, `{"role":"assistant","content":{"type":"text","text":"x"}}`, false},
		{KindRoots, answerRoots, true},
		{KindRoots, `{"roots":[{"name":"no uri"}]}`, false},
		{KindRoots, `{"roots":{}}`, false},
		{KindRoots, `[]`, false},
		{KindRoots, ``, false},
	}
	for _, tc := range answers {
		err := validateAnswer(tc.kind, json.RawMessage(tc.answer))
		if (err == nil) != tc.ok {
			t.Errorf("%v %s: %v", tc.kind, tc.answer, err)
		}
		if err != nil && (asError(err).Code != CodeInternal || asError(err).Message != MsgInvalidAnswer) {
			t.Errorf("error %v", err)
		}
	}
}

func TestVersionHelpers(t *testing.T) {
	if choose([]string{Version20260728, Version20251125}, []string{"2024-11-05", Version20251125}) != Version20251125 {
		t.Error("choose")
	}
	if firstLegacy([]string{Version20260728, Version20250618}) != Version20250618 || firstLegacy([]string{Version20260728}) != "" {
		t.Error("firstLegacy")
	}
	if !Stateless(Version20260728) || Stateless(Version20251125) || !KnownVersion("2024-11-05") ||
		!KnownVersion("2024-10-07") || KnownVersion("2023-01-01") {
		t.Error("Stateless/KnownVersion")
	}
	if e := noCommonVersion([]string{Version20260728}, nil); string(e.Data) != `{"requested":["2026-07-28"],"supported":[]}` {
		t.Errorf("data %s", e.Data)
	}
	for k, s := range map[QuestionKind]string{KindSampling: "sampling", KindElicitForm: "elicitation-form", KindElicitURL: "elicitation-url", KindRoots: "roots", 9: "QuestionKind(9)"} {
		if k.String() != s {
			t.Errorf("%d: %s", k, k)
		}
	}
	for k := StepSpawn; k <= StepRenegotiate+1; k++ {
		if k.String() == "" {
			t.Errorf("step %d unnamed", k)
		}
	}
}

// A launcher's cold start downloads the server: the probe waits longer.
func TestProbeTimeoutFor(t *testing.T) {
	for cmd, want := range map[string]time.Duration{
		"npx": DefaultLauncherProbeTimeout, "/usr/bin/uvx": DefaultLauncherProbeTimeout,
		"docker": DefaultLauncherProbeTimeout, "./server": DefaultProbeTimeout, "node": DefaultProbeTimeout,
	} {
		if got := ProbeTimeoutFor(cmd); got != want {
			t.Errorf("%s: %v, want %v", cmd, got, want)
		}
	}
}

// A feature of a later era is marked on an older session only.
func TestNotIn(t *testing.T) {
	cases := []struct{ version, feature, want string }{
		{Version20241105, FeatureAudioContent, "(not in 2024-11-05)"},
		{Version20241007, FeatureToolAnnotations, "(not in 2024-11-05)"},
		{Version20250326, FeatureAudioContent, ""},
		{Version20250326, FeatureStructuredContent, "(not in 2025-03-26)"},
		{Version20250326, FeatureTitle, "(not in 2025-03-26)"},
		{Version20250618, FeatureResourceLink, ""},
		{Version20260728, FeatureElicitation, ""},
		{Version20241105, "something undated", ""},
	}
	for _, c := range cases {
		if got := NotIn(c.version, c.feature); got != c.want {
			t.Errorf("NotIn(%s, %s) = %q, want %q", c.version, c.feature, got, c.want)
		}
	}
}
