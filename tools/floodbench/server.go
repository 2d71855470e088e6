package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"time"
)

// benchTool and benchField are the tool the server offers and its one
// argument, for the typing benchmark's form.
const (
	benchTool  = "typebench_echo"
	benchField = "message_text"
)

// floodServer is an initialize-era MCP server that, once initialized,
// sends notifications/message at rate per second (0: as fast as the pipe
// takes them; < 0: none) until its stdin closes. It offers one tool.
func floodServer(rate int) int {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	write := func(s string) {
		out.WriteString(s)
		out.Flush()
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
		case m.Method == "initialize":
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{}},"serverInfo":{"name":"flood","version":"1.0.0"}}}` + "\n")
		case m.Method == "tools/list":
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[{"name":"` + benchTool + `","description":"echoes its text","inputSchema":{"type":"object","properties":{"` + benchField + `":{"type":"string","description":"what to echo"}},"required":["` + benchField + `"]}}]}}` + "\n")
		case m.Method == "notifications/initialized" && rate >= 0:
			go func() {
				flood(out, rate)
				os.Exit(0)
			}()
		case m.ID != nil && m.Method != "":
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}` + "\n")
		}
	}
}

// flood writes notifications in bursts every 10 ms until a write fails.
func flood(out *bufio.Writer, rate int) {
	line := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick tock, a log line of ordinary length"}}` + "\n"
	burst := 1000
	if rate > 0 {
		burst = max(rate/100, 1)
	}
	chunk := strings.Repeat(line, burst)
	var tick <-chan time.Time
	if rate > 0 {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	for {
		if tick != nil {
			<-tick
		}
		if _, err := out.WriteString(chunk); err != nil {
			return
		}
		if err := out.Flush(); err != nil {
			return
		}
	}
}
