package model

import (
	"fmt"
	"strings"
	"testing"
)

func logLine(level, data string) string {
	return `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"` + level + `","logger":"demo","data":` + data + `}}`
}

// Every log message the server sends is kept with its level, logger, its
// data on one line and the traffic line it came on; one the client sends
// is not the server's log.
func TestLogMessagesKept(t *testing.T) {
	s := started(t, Config{})
	s.Apply(in(1, logLine("info", `"hello \u001b[2J"`)))
	s.Apply(in(2, logLine("error", `{"n":[1,2],"s":"x"}`)))
	s.Apply(out(3, logLine("debug", `"mine"`)))
	s.Apply(in(4, logLine("shouting", `"odd level"`)))
	b := s.Logs()
	if b.Len() != 3 || b.Total() != 3 {
		t.Fatalf("kept %d of %d, want 3 of 3", b.Len(), b.Total())
	}
	e := b.At(0)
	if e.Level != "info" || e.Logger != "demo" || e.Text != "hello \x1b[2J" || e.Rank != 1 || e.Gen != 1 {
		t.Errorf("first: %+v", e)
	}
	if tr := s.History().BySeq(e.Seq); tr == nil || tr.Method != "notifications/message" {
		t.Errorf("its traffic line: %+v", tr)
	}
	if got := b.At(1).Text; got != `{"n":[1,2],"s":"x"}` {
		t.Errorf("JSON data: %q", got)
	}
	if b.At(2).Rank != -1 {
		t.Errorf("an unknown level ranks %d, want -1", b.At(2).Rank)
	}
}

// Filtering by level keeps the messages at least as severe as the level
// picked; the lowest level keeps everything, unknown levels included.
func TestLogSelectByLevel(t *testing.T) {
	s := started(t, Config{})
	for i, l := range []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", "bogus"} {
		s.Apply(in(float64(i), logLine(l, `"`+l+`"`)))
	}
	b := s.Logs()
	texts := func(idx []int) string {
		var out []string
		for _, i := range idx {
			out = append(out, b.At(i).Text)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		min  int
		want string
	}{
		{0, "debug info notice warning error critical alert emergency bogus"},
		{LevelRank("warning"), "warning error critical alert emergency"},
		{LevelRank("emergency"), "emergency"},
	} {
		if got := texts(b.Select(c.min)); got != c.want {
			t.Errorf("Select(%d) = %q, want %q", c.min, got, c.want)
		}
	}
}

// The book is bounded: the oldest messages go, and are counted; a huge
// message is cut.
func TestLogBookBounded(t *testing.T) {
	s := started(t, Config{})
	for i := range DefaultLogEntries + 10 {
		s.Apply(in(float64(i)/1000, logLine("info", fmt.Sprintf(`"m%d"`, i))))
	}
	b := s.Logs()
	if b.Len() != DefaultLogEntries || b.Dropped() != 10 || b.Total() != DefaultLogEntries+10 {
		t.Fatalf("len %d dropped %d total %d", b.Len(), b.Dropped(), b.Total())
	}
	if b.At(0).Text != "m10" {
		t.Errorf("oldest kept: %q", b.At(0).Text)
	}
	s.Apply(in(99, logLine("info", `"`+strings.Repeat("x", 1<<20)+`"`)))
	if n := len(b.At(b.Len() - 1).Text); n > logTextBytes {
		t.Errorf("a 1 MiB message kept %d bytes", n)
	}
}

// The level the client set is part of the connection's state, and a new
// process starts without one.
func TestLogLevelSet(t *testing.T) {
	s := started(t, Config{})
	s.Apply(LogLevelSet{Stamp: Stamp{Time: at(1), Gen: 1}, Level: "debug"})
	if c := s.Conn(); c.LogLevel != "debug" || c.LogLevelErr != "" {
		t.Errorf("level %q err %q", c.LogLevel, c.LogLevelErr)
	}
	s.Apply(Started{Stamp: Stamp{Time: at(2), Gen: 2}})
	if c := s.Conn(); c.LogLevel != "" {
		t.Errorf("after a restart: %q", c.LogLevel)
	}
}

// Two log messages in one 2025-03-26 batch are two messages of the book,
// each read from its own part of the line.
func TestLogMessagesInABatch(t *testing.T) {
	s := started(t, Config{})
	s.Apply(in(1, `[`+logLine("info", `"first"`)+`,{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},`+logLine("error", `"second"`)+`]`))
	b := s.Logs()
	if b.Len() != 2 || b.At(0).Text != "first" || b.At(1).Text != "second" || b.At(1).Level != "error" {
		t.Fatalf("%d: %+v %+v", b.Len(), b.At(0), b.At(1))
	}
}

// A message whose traffic line was evicted is forgotten with it.
func TestLogForgetsEvictedLines(t *testing.T) {
	s := started(t, Config{HistoryBytes: 64 << 10})
	s.Apply(in(0, logLine("info", `"old"`)))
	for i := 0; s.History().Evicted() == 0; i++ {
		s.Apply(in(float64(i), `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`))
	}
	s.Apply(in(99, logLine("info", `"new"`)))
	if b := s.Logs(); b.Len() != 1 || b.At(0).Text != "new" || b.Dropped() != 1 {
		t.Fatalf("kept %d, dropped %d", b.Len(), b.Dropped())
	}
}
