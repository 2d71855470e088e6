package tap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// TypeRefused answers a "resolve" the tap could not do (no such hold, or an
// edit or answer that is not JSON); the hold is still waiting.
const TypeRefused = "refused"

// arm sets (or, with an empty filter, removes) the viewer's breakpoint.
func (h *hub) arm(v *viewer, req Request) {
	if req.Filter == "" {
		h.mu.Lock()
		h.disarm(v)
		h.mu.Unlock()
		v.sendMessage(Message{Type: TypeArmed})
		return
	}
	f, err := ParseFilter(req.Filter)
	if err != nil {
		v.sendMessage(Message{Type: TypeArmed, Filter: req.Filter, Error: err.Error()})
		return
	}
	d := time.Duration(req.DeadlineMs) * time.Millisecond
	if d <= 0 {
		d = DefaultHoldDeadline
	}
	d = min(d, MaxHoldDeadline)
	h.mu.Lock()
	h.disarm(v)
	h.breaks[v] = breakpoint{filter: f, deadline: d}
	for _, dir := range filterDirections(f) {
		h.armedDir[dir].Add(1)
	}
	h.mu.Unlock()
	v.sendMessage(Message{Type: TypeArmed, Filter: f.String()})
}

// disarm removes the viewer's breakpoint; h.mu is held.
func (h *hub) disarm(v *viewer) {
	bp, ok := h.breaks[v]
	if !ok {
		return
	}
	delete(h.breaks, v)
	for _, dir := range filterDirections(bp.filter) {
		h.armedDir[dir].Add(-1)
	}
}

// armed reports whether a viewer has a breakpoint on dir.
func (h *hub) armed(dir Direction) bool { return h.armedDir[dir].Load() > 0 }

// matches reports whether some viewer's breakpoint matches the line.
func (h *hub) matches(dir Direction, line []byte) bool {
	_, _, ok := h.owner(dir, line)
	return ok
}

// owner is the viewer whose breakpoint holds the line: the one that armed
// first, when several match.
func (h *hub) owner(dir Direction, line []byte) (*viewer, breakpoint, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var best *viewer
	var bestBP breakpoint
	m := lineMatcher{dir: dir, line: line}
	for v, bp := range h.breaks {
		if (best == nil || v.seq < best.seq) && m.match(bp.filter) {
			best, bestBP = v, bp
		}
	}
	return best, bestBP, best != nil
}

// hold holds a whole line for the viewer whose breakpoint matches it, until
// the viewer decides or the deadline passes (then it goes on unchanged).
func (h *hub) hold(dir Direction, line []byte) verdict {
	content := trimEOL(line)
	owner, bp, ok := h.owner(dir, content)
	if !ok {
		return verdict{}
	}
	h.mu.Lock()
	h.nextHold++
	hd := &held{id: h.nextHold, dir: dir, line: content, owner: owner, start: time.Now(), result: make(chan verdict, 1)}
	h.holds[hd.id] = hd
	h.mu.Unlock()
	deadline := hd.start.Add(bp.deadline)
	owner.sendMessage(Message{Type: TypeHold, Hold: hd.id, Dir: dir.String(), Deadline: deadline, Line: content, Filter: bp.filter.String()})
	timer := time.NewTimer(bp.deadline)
	defer timer.Stop()
	var v verdict
	select {
	case v = <-hd.result:
	case <-timer.C:
		v = verdict{mark: fmt.Sprintf("held by a breakpoint; its deadline passed after %s: forwarded unchanged", bp.deadline)}
	}
	h.mu.Lock()
	delete(h.holds, hd.id)
	h.mu.Unlock()
	owner.sendMessage(Message{Type: TypeResolved, Hold: hd.id, Dir: dir.String(), Mark: v.mark})
	return v
}

// decide ends a hold; the first decision wins.
func (h *hub) decide(hd *held, v verdict) {
	select {
	case hd.result <- v:
	default:
	}
}

// resolve carries out a viewer's decision about one of its holds.
func (h *hub) resolve(v *viewer, req Request) {
	h.mu.Lock()
	hd := h.holds[req.Hold]
	h.mu.Unlock()
	refuse := func(format string, args ...any) {
		v.sendMessage(Message{Type: TypeRefused, Hold: req.Hold, Error: fmt.Sprintf(format, args...)})
	}
	if hd == nil || hd.owner != v {
		refuse("no hold %d is waiting for this viewer", req.Hold)
		return
	}
	held := time.Since(hd.start).Round(time.Millisecond)
	other := "server"
	if hd.dir == ToHost {
		other = "host"
	}
	switch req.Action {
	case ActionForward:
		h.decide(hd, verdict{mark: fmt.Sprintf("held %s by a breakpoint; forwarded unchanged by the viewer", held)})
	case ActionDrop:
		h.decide(hd, verdict{drop: true, mark: fmt.Sprintf("dropped at a breakpoint by the viewer (held %s)", held)})
	case ActionEdit, ActionAnswer:
		line, err := compactLine(req.Line)
		if err != nil {
			refuse("%s: %v", req.Action, err)
			return
		}
		if req.Action == ActionEdit {
			h.decide(hd, verdict{drop: true, replace: line,
				mark:    fmt.Sprintf("replaced at a breakpoint by the viewer's edit, the next line (held %s)", held),
				markNew: "edited at a breakpoint by the viewer, in place of the line before"})
			return
		}
		if len(line) == 0 || line[0] != '{' {
			refuse("answer: want a JSON-RPC object")
			return
		}
		h.decide(hd, verdict{drop: true, answer: line,
			mark:    fmt.Sprintf("answered at a breakpoint by the viewer in the %s's place (held %s)", other, held),
			markNew: fmt.Sprintf("written at a breakpoint by the viewer in the %s's place", other)})
	default:
		refuse("unknown action %q (want forward, drop, edit or answer)", req.Action)
	}
}

// compactLine is a JSON value on one line with its newline, or why it is
// not JSON.
func compactLine(text string) ([]byte, error) {
	raw := []byte(text)
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, fmt.Errorf("empty: want a JSON value")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
