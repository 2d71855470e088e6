package model

import (
	"slices"
	"strings"
)

// markAuto remembers that a policy answered q, so that the line carrying
// the answer is marked with the policy on the wire: the response to a
// server request (by its id), or the request of ours that re-sends an
// input_required entry's answer (by the entry's key in inputResponses).
func (s *Session) markAuto(q *Question) {
	if s.auto == nil {
		s.auto = map[string]string{}
	}
	if len(s.auto) > 256 {
		// Marks whose line never came (the connection died first) are
		// not kept forever.
		clear(s.auto)
	}
	s.auto[autoKey(q.Gen, q.RequestID, q.InputKey)] = q.Auto
}

// autoKey names an answer's line: a server request's id, or an
// input_required entry's key as it is on the wire (the session makes the
// queue's key unique with a "#N" suffix).
func autoKey(gen int, requestID []byte, inputKey string) string {
	if requestID != nil {
		return questionKey(gen, requestID, "")
	}
	if i := strings.LastIndexByte(inputKey, '#'); i >= 0 {
		inputKey = inputKey[:i]
	}
	return questionKey(gen, nil, inputKey)
}

// autoMarkFor is the policy that answered what an outgoing line carries,
// or "" (and forgets it once used).
func (s *Session) autoMarkFor(env envelope) string {
	if len(s.auto) == 0 {
		return ""
	}
	gen := s.conn.Gen
	switch env.kind {
	case KindResponse, KindError:
		k := autoKey(gen, env.id, "")
		if rule, ok := s.auto[k]; ok {
			delete(s.auto, k)
			return rule
		}
	case KindRequest:
		responses := member(env.params, "inputResponses")
		if responses == nil {
			return ""
		}
		var rules []string
		prefix := questionKey(gen, nil, "")
		for k, rule := range s.auto {
			if key, ok := strings.CutPrefix(k, prefix); ok && member(responses, key) != nil {
				rules = append(rules, rule)
				delete(s.auto, k)
			}
		}
		slices.Sort(rules)
		return strings.Join(rules, ", ")
	}
	return ""
}
