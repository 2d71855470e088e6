package model

import (
	"encoding/json"
	"testing"
	"time"
)

// t0 is the fixed start of every test clock.
var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// at is t0 plus seconds.
func at(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }

func out(sec float64, line string) Wire {
	return Wire{Stamp: Stamp{Time: at(sec)}, Dir: Out, Line: []byte(line), Size: len(line)}
}

func in(sec float64, line string) Wire {
	return Wire{Stamp: Stamp{Time: at(sec)}, Dir: In, Line: []byte(line), Size: len(line)}
}

// started returns a session whose first process is ready.
func started(t *testing.T, cfg Config) *Session {
	t.Helper()
	s := New(cfg)
	s.Apply(Started{Stamp: Stamp{Time: t0}, Command: []string{"./server"}, PID: 42})
	s.Apply(Ready{Stamp: Stamp{Time: t0}, ServerName: "demo", ServerVersion: "1.0", Protocol: "2025-11-25"})
	return s
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }
