package model

import (
	"strings"
	"testing"
)

// A log message reads "level logger: data" whatever its strings hold.
func TestLogSummary(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, c := range []struct{ params, want string }{
		{`{"level":"info","logger":"flood","data":"tick"}`, "info flood: tick"},
		{`{"level":"info","data":"tick"}`, "info: tick"},
		{`{"level":"warning","logger":"a\"b","data":"caf\u00e9 \n"}`, "warning a\"b: café \n"},
		{`{"level":"error","data":{"k":[1,2]}}`, `error: {"k":[1,2]}`},
		{`{"level":"info","logger":7,"data":"x"}`, "info: x"},
		{`{"data":"only"}`, ": only"},
		{`{"level":"info","data":"` + long + `"}`, ("info: " + long)[:summaryBytes]},
		{`{"level":"info","logger":"` + long + `","data":"x"}`, ("info " + long)[:summaryBytes]},
		{`{"level":"info","data":{"k":"` + long + `"}}`, (`info: {"k":"` + long)[:summaryBytes]},
	} {
		if got := notificationSummary("notifications/message", []byte(c.params)); got != c.want {
			t.Errorf("%s: summary %q, want %q", c.params, got, c.want)
		}
	}
}

// A known method's name is shared, an unknown one decoded.
func TestMethodName(t *testing.T) {
	for raw, want := range map[string]string{
		`"notifications/message"`: "notifications/message",
		`"tools/call"`:            "tools/call",
		`"x/custom"`:              "x/custom",
		`"tools\/call"`:           "tools/call",
	} {
		if got, ok := methodName([]byte(raw)); !ok || got != want {
			t.Errorf("methodName(%s) = %q, %v; want %q", raw, got, ok, want)
		}
	}
	if _, ok := methodName([]byte(`7`)); ok {
		t.Error("a number is a method name")
	}
}

// A flood's notification costs the reducer one allocation, its entry's
// summary: the line conn's adapter copied is kept as it is, the envelope,
// the summary's parts and the live lint read in place, the method's name
// shared.
func TestNotificationAllocations(t *testing.T) {
	s := started(t, Config{HistoryBytes: 1 << 20})
	line := []byte(floodLine(1))
	w := Wire{Stamp: Stamp{Time: t0}, Dir: In, Line: line, Size: len(line), Owned: true}
	var ev Event = w
	allocs := testing.AllocsPerRun(2000, func() { s.Apply(ev) })
	if allocs > 1 {
		t.Errorf("a log notification costs %.1f allocations, want 1 (its summary)", allocs)
	}
	if e := s.History().At(s.History().Len() - 1); e.Method != "notifications/message" || !strings.HasPrefix(e.Summary, "info flood: line 1 ") {
		t.Errorf("entry %q %q", e.Method, e.Summary)
	}
}
