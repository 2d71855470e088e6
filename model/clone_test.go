package model

import (
	"fmt"
	"reflect"
	"testing"
)

// cloneScript is a session's worth of events of every kind the tables
// keep: calls in flight and finished, progress, a subscription, a log
// message, stderr, a question, an error.
func cloneScript() []Event {
	return []Event{
		Started{Stamp: Stamp{Time: t0}, Command: []string{"./server"}, PID: 42},
		Ready{Stamp: Stamp{Time: t0}, ServerName: "demo", ServerVersion: "1.0", Protocol: "2025-11-25"},
		out(1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p1"}}}`),
		out(1.1, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"file:///a"}}`),
		in(1.2, `{"jsonrpc":"2.0","id":2,"result":{}}`),
		in(1.3, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":4}}`),
		in(1.4, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"careful"}}`),
		Stderr{Stamp: Stamp{Time: at(1.5)}, Line: "some stderr"},
		in(1.6, `{"jsonrpc":"2.0","id":"q1","method":"sampling/createMessage","params":{"messages":[]}}`),
		// The script is cut here for the clone; the rest goes to both.
		in(2, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a"}}`),
		in(2.1, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":3,"total":4}}`),
		in(2.2, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}`),
		out(2.3, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bad"}}`),
		in(2.4, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no"}}`),
		Exited{Stamp: Stamp{Time: at(3)}, Status: "exit status 1"},
	}
}

// A clone goes on from where its session was as the session itself
// would, and what it folds leaves the session alone.
func TestSessionCloneGoesOnAsTheSession(t *testing.T) {
	evs := cloneScript()
	const cut = 9
	whole := New(Config{})
	whole.ApplyAll(evs)

	s := New(Config{})
	s.ApplyAll(evs[:cut])
	before := New(Config{})
	before.ApplyAll(evs[:cut])

	c, bytes := s.Clone()
	if bytes <= 0 {
		t.Errorf("the clone says it allocated %d bytes", bytes)
	}
	if !reflect.DeepEqual(c, s) {
		t.Fatal("the clone differs from its session")
	}
	c.ApplyAll(evs[cut:])
	if !reflect.DeepEqual(s, before) {
		t.Fatal("folding into the clone changed the session")
	}
	if !reflect.DeepEqual(c, whole) {
		t.Fatalf("the clone went on elsewhere: %d history entries, %+v, against %d, %+v", c.History().Len(), c.Conn(), whole.History().Len(), whole.Conn())
	}
	if c.History() == s.History() || c.History().Len() == s.History().Len() {
		t.Fatal("the clone shares its session's history")
	}
}

// A prelinter's clone judges the lines after the cut as the prelinter
// would have.
func TestPrelinterCloneJudgesAsThePrelinter(t *testing.T) {
	evs := cloneScript()
	const cut = 9
	whole := NewPrelinter()
	all := append([]Event(nil), evs...)
	whole.Lint(all)

	p := NewPrelinter()
	p.Lint(append([]Event(nil), evs[:cut]...))
	c, _ := p.Clone()
	rest := append([]Event(nil), evs[cut:]...)
	c.Lint(rest)
	if !reflect.DeepEqual(rest, all[cut:]) {
		t.Fatal("the clone judged the rest differently")
	}
}

// checkpointScript is a long session under a small history cap: calls
// answered long after they were sent (the link reaches back), lost lines
// merged into one entry, log messages, a discarded line, stderr, a
// restart; the history evicts all along.
func checkpointScript() []Event {
	evs := []Event{
		Started{Stamp: Stamp{Time: t0}, Command: []string{"./server"}, PID: 42},
		Ready{Stamp: Stamp{Time: t0}, ServerName: "demo", ServerVersion: "1.0", Protocol: "2025-11-25"},
	}
	sec := 1.0
	next := func() float64 { sec += 0.01; return sec }
	for i := range 120 {
		switch i % 6 {
		case 0:
			evs = append(evs, out(next(), fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t%d"}}`, i, i)))
		case 1:
			evs = append(evs, in(next(), fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"log %d"}}`, i)))
		case 2:
			evs = append(evs, Wire{Stamp: Stamp{Time: at(next())}, Dir: In, Size: 90, Lost: true}, Wire{Stamp: Stamp{Time: at(next())}, Dir: In, Size: 80, Lost: true})
		case 3:
			if i >= 12 {
				evs = append(evs, in(next(), fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"answer %d"}]}}`, i-15, i)))
			}
		case 4:
			evs = append(evs, Stderr{Stamp: Stamp{Time: at(next())}, Line: fmt.Sprintf("stderr %d", i)})
		case 5:
			if i%30 == 5 {
				evs = append(evs, Wire{Stamp: Stamp{Time: at(next())}, Dir: In, Size: 70, Discarded: true, Reason: "not JSON", Line: []byte("garbage")})
			}
		}
		if i == 70 {
			evs = append(evs, Exited{Stamp: Stamp{Time: at(next())}, Status: "exit status 1"},
				Started{Stamp: Stamp{Time: at(next())}, Command: []string{"./server"}, PID: 43})
		}
	}
	return evs
}

// A checkpoint keeps the session without its history's entries; folding
// the events since an earlier checkpoint into that one's Scratch rebuilds
// them, and Restore gives the session folding from the start gives, at
// every event, from every earlier checkpoint that covers it.
func TestCheckpointRestoresTheSessionFromAScratch(t *testing.T) {
	evs := checkpointScript()
	cfg := Config{HistoryBytes: 6 << 10}
	s := New(cfg)
	ks := make([]*Checkpoint, len(evs)+1)
	for i := range len(evs) + 1 {
		if i > 0 {
			s.Apply(evs[i-1])
		}
		k, bytes := s.Checkpoint()
		if bytes <= 0 || bytes > 64<<10 {
			t.Fatalf("checkpoint %d says it costs %d bytes", i, bytes)
		}
		ks[i] = k
	}
	if s.History().Evicted() == 0 {
		t.Fatal("the script never filled the history")
	}
	whole := New(cfg)
	whole.ApplyAll(evs)
	restored := 0
	for j := range ks {
		want := New(cfg)
		want.ApplyAll(evs[:j])
		// From the start.
		scratch := New(cfg)
		scratch.ApplyAll(evs[:j])
		got, err := ks[j].Restore(scratch.History())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("at %d the session restored from a fold from the start differs", j)
		}
		// The checkpoints a window of history before j cover it (the
		// nearer ones hold entries newer than its oldest): the three
		// newest of them.
		tried := 0
		for i := j; i >= 0 && tried < 3; i-- {
			if !ks[i].Covers(ks[j]) {
				if tried > 0 {
					t.Fatalf("checkpoint %d covers %d, %d before it does not", i+1, j, i)
				}
				continue
			}
			tried++
			sc := ks[i].Scratch()
			sc.ApplyAll(evs[i:j])
			got, err := ks[j].Restore(sc.History())
			if err != nil {
				t.Fatalf("restoring %d from %d: %v", j, i, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("at %d the session restored from checkpoint %d's scratch differs from the one folded", j, i)
			}
			// The restored session goes on as the folded one.
			got.ApplyAll(evs[j:])
			if !reflect.DeepEqual(got, whole) {
				t.Fatalf("the session restored at %d from %d went on elsewhere", j, i)
			}
			restored++
		}
		// The newest that does not cover j: its scratch misses j's
		// oldest entry, and Restore says so.
		for i := j; i >= 0; i-- {
			if !ks[i].Covers(ks[j]) && ks[j].FirstSeq() < ks[j].NextSeq() {
				sc := ks[i].Scratch()
				sc.ApplyAll(evs[i:j])
				if _, err := ks[j].Restore(sc.History()); err == nil {
					t.Fatalf("checkpoint %d restored from %d's scratch, which misses its oldest entry", j, i)
				}
				break
			}
		}
	}
	t.Logf("%d restores of %d checkpoints", restored, len(ks))
	if restored < 2*len(ks) || s.History().Evicted() < 3*s.History().Len() {
		t.Fatalf("only %d restores from an earlier checkpoint", restored)
	}
}

// A checkpoint costs what the tables beside the history cost, not the
// history: a session whose history holds thousands of entries checkpoints
// in a few KiB.
func TestCheckpointLeavesTheHistoryOut(t *testing.T) {
	s := New(Config{HistoryBytes: 4 << 20})
	for i := range 5000 {
		s.Apply(in(float64(i), fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"line %d"}}`, i)))
	}
	if s.History().Len() != 5000 {
		t.Fatalf("the history holds %d entries", s.History().Len())
	}
	_, full := s.Clone()
	_, bytes := s.Checkpoint()
	// The log book indexes the 5,000 messages (16 bytes each).
	if bytes > 128<<10 || bytes*10 > full {
		t.Fatalf("the checkpoint costs %d bytes, a clone %d", bytes, full)
	}
}
