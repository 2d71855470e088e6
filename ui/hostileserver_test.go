package ui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// The test binary doubles as hostile MCP servers (the os/exec helper-process
// idiom): with hostileEnv set to a mode it serves that mode on
// stdin/stdout instead of running the tests. Every mode puts escape
// sequences in every string it controls.
const hostileEnv = "MCPTUI_UI_HOSTILE"

// evil is server text that would take over a terminal drawn raw: clear
// screen, cursor home, title, clipboard write, hyperlink, C1 CSI, bidi.
const evil = "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIC8=\x07\x1b]8;;https://evil\x1b\\click\x1b]8;;\x1b\\\u009b31m\u202eexe.txt"

// hostileModes are the servers, by mode.
var hostileModes = map[string]func(h *hostile){
	// flood: after initialize, notifications/message as fast as the pipe
	// takes them (paced at most 100,000 a second) and a stderr line every
	// millisecond, until stdin closes.
	"flood": func(h *hostile) {
		h.serve(func(m hostileMsg) bool { return false }, func() {
			go h.stderrFlood()
			go h.flood(100_000)
		})
	},
	// hugeline: after initialize, one 256 MiB line (16 times the line
	// limit; 1 GiB took longer than any wait on a loaded machine under
	// -race, and conn's own tests cover that size), then a normal one.
	"hugeline": func(h *hostile) {
		h.serve(func(m hostileMsg) bool { return false }, func() {
			go func() {
				h.hugeLine(256 << 20)
				h.notify(`{"level":"info","data":"after the huge line"}`)
			}()
		})
	},
	// noread: after initialize, never reads stdin again, but keeps
	// talking.
	"noread": func(h *hostile) {
		h.serve(func(m hostileMsg) bool { return false }, func() {
			for i := 0; ; i++ {
				h.notify(fmt.Sprintf(`{"level":"info","data":"still here %d, not reading"}`, i))
				time.Sleep(50 * time.Millisecond)
			}
		})
	},
	// asker: once initialized, asks for sampling ("q1") and an
	// elicitation ("q2"); withdraws q1 on a tools/call of "withdraw" (so
	// the test sees both first, however slow the machine), and exits with
	// status 3 on any other tools/call.
	"asker": func(h *hostile) {
		h.serve(func(m hostileMsg) bool {
			if m.Method != "tools/call" {
				return false
			}
			if strings.Contains(string(m.Params), `"withdraw"`) {
				h.write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"q1","reason":"changed my mind"}}`)
				h.write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[]}}`)
				return true
			}
			os.Exit(3)
			return true
		}, func() {
			h.write(`{"jsonrpc":"2.0","id":"q1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":` + quoted("first question"+evil) + `}}],"maxTokens":10}}`)
			h.write(`{"jsonrpc":"2.0","id":"q2","method":"elicitation/create","params":{"message":` + quoted("second question"+evil) + `,"requestedSchema":{"type":"object","properties":{}}}}`)
		})
	},
	// crash: tools/call gets half an answer, a panic on stderr, and exit
	// status 2.
	// rulebreaker answers tools/call "broken" with a result that is no
	// object (basic.result-object), any other tool cleanly.
	"rulebreaker": func(h *hostile) {
		h.serve(func(m hostileMsg) bool {
			if m.Method != "tools/call" {
				return false
			}
			result := `{"content":[]}`
			if strings.Contains(string(m.Params), `"broken"`) {
				result = `42`
			}
			h.write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`)
			return true
		}, nil)
	},
	"crash": func(h *hostile) {
		h.serve(func(m hostileMsg) bool {
			if m.Method != "tools/call" {
				return false
			}
			h.write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"te`)
			fmt.Fprintf(os.Stderr, "panic: %s runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.handle()\n", evil)
			os.Exit(2)
			return true
		}, nil)
	},
}

// hostile is a hostile server's end of the pipe.
type hostile struct {
	in  *bufio.Reader
	mu  sync.Mutex
	out *bufio.Writer
}

type hostileMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// runHostile runs the server of a mode and returns the exit status.
func runHostile(mode string) int {
	run := hostileModes[mode]
	if run == nil {
		fmt.Fprintf(os.Stderr, "no hostile mode %q\n", mode)
		return 2
	}
	run(&hostile{in: bufio.NewReaderSize(os.Stdin, 1<<20), out: bufio.NewWriterSize(os.Stdout, 1<<20)})
	return 0
}

func (h *hostile) write(line string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.out.WriteString(line)
	h.out.WriteByte('\n')
	h.out.Flush()
}

func (h *hostile) notify(params string) {
	h.write(`{"jsonrpc":"2.0","method":"notifications/message","params":` + params + `}`)
}

// quoted is s as a JSON string.
func quoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// serve answers the handshake (a legacy server: the probe gets -32601),
// tools/list and anything else with an error; special handles a request
// first and reports whether it did. after runs once initialized, on the
// reading goroutine (so it stops the reading until it returns); serve
// returns at EOF.
func (h *hostile) serve(special func(hostileMsg) bool, after func()) {
	for {
		line, err := h.in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m hostileMsg
		if json.Unmarshal(line, &m) != nil || m.Method == "" {
			continue
		}
		if m.ID == nil {
			if m.Method == "notifications/initialized" && after != nil {
				after()
			}
			continue
		}
		if special(m) {
			continue
		}
		switch m.Method {
		case "initialize":
			h.write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},` +
				`"serverInfo":{"name":` + quoted("hostile"+evil) + `,"version":` + quoted("6.6.6"+evil) + `}}}`)
		case "tools/list":
			h.write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[{"name":` + quoted("tool"+evil) +
				`,"description":` + quoted(evil) + `,"inputSchema":{"type":"object"}}]}}`)
		default:
			h.write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":` + quoted("no "+m.Method+evil) + `}}`)
		}
	}
}

// flood sends notifications at up to perSecond, in bursts every 10 ms.
func (h *hostile) flood(perSecond int) {
	burst := perSecond / 100
	line := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":` + quoted("flood"+evil) + `,"data":` + quoted("tick"+evil) + `}}` + "\n"
	var b strings.Builder
	for range burst {
		b.WriteString(line)
	}
	chunk := b.String()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		h.mu.Lock()
		_, err := h.out.WriteString(chunk)
		if err == nil {
			err = h.out.Flush()
		}
		h.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// stderrFlood writes an escape-laden stderr line every millisecond.
func (h *hostile) stderrFlood() {
	for i := 0; ; i++ {
		if _, err := fmt.Fprintf(os.Stderr, "log %d %s\n", i, evil); err != nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// hugeLine writes a notification of n bytes on one line.
func (h *hostile) hugeLine(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	head := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`
	tail := `"}}` + "\n"
	h.out.WriteString(head)
	block := strings.Repeat("A", 1<<20)
	for left := n - len(head) - len(tail); left > 0; left -= len(block) {
		if _, err := io.WriteString(h.out, block[:min(left, len(block))]); err != nil {
			return
		}
	}
	h.out.WriteString(tail)
	h.out.Flush()
}
