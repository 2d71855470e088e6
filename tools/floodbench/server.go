package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"os"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/protocol"
)

// benchTool and benchField are the tool the server offers and its one
// argument, for the typing benchmark's form.
const (
	benchTool  = "typebench_echo"
	benchField = "message_text"
)

// floodLine is the notification the server floods with.
const floodLine = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick tock, a log line of ordinary length"}}` + "\n"

// floodServer is an initialize-era MCP server that, once initialized,
// sends notifications/message at rate per second (0: as fast as the pipe
// takes them; < 0: none) until its stdin closes. It offers one tool. With
// statsPath it keeps its flood's counters there (floodStats).
func floodServer(rate int, statsPath string) int {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	write := func(s string) {
		out.WriteString(s)
		out.Flush()
	}
	var stats *os.File
	if statsPath != "" {
		f, err := os.OpenFile(statsPath, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return 1
		}
		stats = f
	}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		switch {
		case m.Method == protocol.MethodInitialize:
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{}},"serverInfo":{"name":"flood","version":"1.0.0"}}}` + "\n")
		case m.Method == protocol.MethodListTools:
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[{"name":"` + benchTool + `","description":"echoes its text","inputSchema":{"type":"object","properties":{"` + benchField + `":{"type":"string","description":"what to echo"}},"required":["` + benchField + `"]}}]}}` + "\n")
		case m.Method == protocol.NotificationInitialized && rate >= 0:
			go func() {
				flood(out, rate, func(s floodStats) { s.publish(stats) })
				os.Exit(0)
			}()
		case m.ID != nil && m.Method != "":
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}` + "\n")
		}
	}
}

// floodTick is how often a paced flood wakes to send what is due, and
// floodCatchUp the most it owes before it gives up on the rest.
const (
	floodTick    = 10 * time.Millisecond
	floodCatchUp = 100 * time.Millisecond
)

// floodStats are a flood's counters as the server keeps them in its stats
// file, for the inspector's side to read at both ends of its window:
// Start is when the schedule began (Unix nanoseconds); Sent the lines
// written into the pipe; Blocked the lines skipped because the pipe stayed
// full (the reader's shortfall: it counts as offered); Late the lines
// skipped because the server itself was not running (not offered).
type floodStats struct {
	Start, Sent, Blocked, Late int64
}

// publish writes s into f (nothing without a file).
func (s floodStats) publish(f *os.File) {
	if f == nil {
		return
	}
	var b [32]byte
	binary.LittleEndian.PutUint64(b[0:], uint64(s.Start))
	binary.LittleEndian.PutUint64(b[8:], uint64(s.Sent))
	binary.LittleEndian.PutUint64(b[16:], uint64(s.Blocked))
	binary.LittleEndian.PutUint64(b[24:], uint64(s.Late))
	_, _ = f.WriteAt(b[:], 0)
}

// readFloodStats reads the counters a flood server keeps at path.
func readFloodStats(path string) (floodStats, bool) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 32 {
		return floodStats{}, false
	}
	return floodStats{
		Start:   int64(binary.LittleEndian.Uint64(b[0:])),
		Sent:    int64(binary.LittleEndian.Uint64(b[8:])),
		Blocked: int64(binary.LittleEndian.Uint64(b[16:])),
		Late:    int64(binary.LittleEndian.Uint64(b[24:])),
	}, true
}

// flood writes notifications until a write fails: with a rate, by
// schedule — every floodTick it sends what is due since the start, so a
// tick the server missed (it was descheduled, or its write waited on a full
// pipe) is caught up, up to floodCatchUp of lines owed; beyond that the
// rest is skipped, as Blocked when the last write waited on the pipe, as
// Late when the server was merely not running. Without a rate it writes as
// fast as the pipe takes the lines. It hands its counters to publish after
// every write.
func flood(out *bufio.Writer, rate int, publish func(floodStats)) {
	const maxChunk = 1000
	chunk := strings.Repeat(floodLine, maxChunk)
	send := func(n int64) bool {
		for n > 0 {
			k := min(n, maxChunk)
			if _, err := out.WriteString(chunk[:int(k)*len(floodLine)]); err != nil {
				return false
			}
			n -= k
		}
		return out.Flush() == nil
	}
	if rate <= 0 {
		for send(maxChunk) {
		}
		return
	}
	start := time.Now()
	s := floodStats{Start: start.UnixNano()}
	publish(s)
	maxOwed := max(int64(rate)*int64(floodCatchUp)/int64(time.Second), 1)
	var wrote time.Duration // how long the last write took (waited on the pipe)
	last := start           // when it returned
	for {
		now := time.Now()
		// The owed lines built up over the last write and the gap since:
		// the pipe's fault when the write took the longer.
		blocked := wrote > now.Sub(last)
		due := int64(rate) * int64(now.Sub(start)) / int64(time.Second)
		owed := due - s.Sent - s.Blocked - s.Late
		if owed > maxOwed {
			if blocked {
				s.Blocked += owed - maxOwed
			} else {
				s.Late += owed - maxOwed
			}
			owed = maxOwed
		}
		if !send(owed) {
			return
		}
		s.Sent += owed
		publish(s)
		done := time.Now()
		wrote, last = done.Sub(now), done
		// Sleep to the next tick of the schedule.
		next := start.Add((done.Sub(start)/floodTick + 1) * floodTick)
		time.Sleep(time.Until(next))
	}
}
