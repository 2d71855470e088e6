package record

import (
	"bytes"
	"encoding/json"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// bigEntry is the size from which an entry's line is decoded around its
// msg rather than by json.Unmarshal as a whole: a line entry is mostly its
// message, which Unmarshal would check, scan again and copy (three passes
// over a 15 MiB result, each time the entry is read).
const bigEntry = 64 << 10

// unmarshalEntry is json.Unmarshal(line, e), the same entry and the same
// error, in fewer passes for a big line: the line is checked once
// (jsonscan.Valid), its msg members are set aside as they are (a
// json.RawMessage cannot fail to decode) and the rest, a few hundred
// bytes, is decoded; Msg is then a copy of the last msg member, as
// Unmarshal leaves it (an entry that fails is decoded again whole, for
// Unmarshal's error and what it filled). e must be zero.
func unmarshalEntry(line []byte, e *Entry) error { return unmarshalAround(line, e, bigEntry) }

// unmarshalAround is unmarshalEntry for lines from min bytes.
func unmarshalAround(line []byte, e *Entry, min int) error {
	if len(line) < min || !jsonscan.Valid(line) {
		return json.Unmarshal(line, e)
	}
	i := jsonscan.SkipSpace(line, 0)
	if line[i] != '{' {
		return json.Unmarshal(line, e) // its error
	}
	rest := make([]byte, 0, 1024)
	rest = append(rest, '{')
	var msg []byte
	_ = jsonscan.EachMember(line[i:], func(_, rawKey, value []byte) error {
		name := jsonscan.MemberName(rawKey)
		if name == "msg" || bytes.EqualFold([]byte(name), []byte("msg")) {
			msg = value
			return nil
		}
		if len(rest) > 1 {
			rest = append(rest, ',')
		}
		rest = append(rest, rawKey...)
		rest = append(rest, ':')
		rest = append(rest, value...)
		return nil
	})
	rest = append(rest, '}')
	if err := json.Unmarshal(rest, e); err != nil {
		// Where it stopped (a bad time stops it, a type error does
		// not) is Unmarshal's to say.
		*e = Entry{}
		return json.Unmarshal(line, e)
	}
	if msg != nil {
		e.Msg = bytes.Clone(msg)
	}
	return nil
}
