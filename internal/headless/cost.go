package headless

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/toolcost"
	"github.com/mcptui/mcptui/mcp"
)

// toolsCost is mcptui tools --cost's result: what each tool's definition
// costs in context (internal/toolcost), costliest first, as JSON or as a
// table.
func toolsCost(tools []mcp.Tool, contextTokens int) (*result, error) {
	raws := make([]json.RawMessage, len(tools))
	for i, t := range tools {
		raws[i] = t.Raw
	}
	l, err := toolcost.Of(raws, contextTokens)
	if err != nil {
		return nil, fmt.Errorf("counting the tools' cost: %w", err)
	}
	raw, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("counting the tools' cost: %w", err)
	}
	return &result{raw: raw, text: func(w io.Writer, _ json.RawMessage) error { return l.WriteText(w, inert.Line) }}, nil
}
