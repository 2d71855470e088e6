package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// event is one Server-Sent Event: its data lines joined with "\n", its
// id and its retry hint (0 when absent).
type event struct {
	ID    string
	Name  string
	Data  string
	Retry int
}

// maxEventBytes bounds one SSE line, so a broken stream cannot exhaust
// memory.
const maxEventBytes = 64 << 20

// readEvents parses a text/event-stream body (the WHATWG rules: fields
// "data", "id", "event", "retry"; lines starting with ':' are comments; an
// empty line dispatches the event) and calls fn for every event that has
// data. It returns nil at a clean end of the stream, fn's error, or the
// read error.
func readEvents(r io.Reader, fn func(event) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventBytes)
	sc.Split(scanSSELines)
	var ev event
	var data strings.Builder
	hasData := false
	dispatch := func() error {
		defer func() {
			ev = event{ID: ev.ID} // the last event id persists
			data.Reset()
			hasData = false
		}()
		if !hasData {
			return nil
		}
		ev.Data = data.String()
		return fn(ev)
	}
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if err := dispatch(); err != nil {
				return err
			}
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			data.WriteString(value)
			hasData = true
		case "id":
			if !strings.ContainsRune(value, 0) {
				ev.ID = value
			}
		case "event":
			ev.Name = value
		case "retry":
			if n, err := strconv.Atoi(value); err == nil && n >= 0 {
				ev.Retry = n
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading event stream: %w", err)
	}
	// A stream that ends without a blank line still delivers its last event.
	return dispatch()
}

// scanSSELines splits on "\r\n", "\n" or "\r", as event streams allow.
func scanSSELines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\r' {
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
				return i + 1, data[:i], nil
			}
			if !atEOF {
				return 0, nil, nil // a "\n" may follow
			}
		}
		return i + 1, data[:i], nil
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}
