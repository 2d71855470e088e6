// Package toolcost says what a server's tool definitions cost in a
// model's context, in tokens of a real BPE tokenizer: OpenAI's o200k_base
// (tiktoken-go, with its ranks embedded compressed in this package, so
// nothing is fetched at run time). Claude's and Gemini's tokenizers are not
// published; o200k_base is the closest public one, so figures for those
// models are estimates, and every figure names the tokenizer it comes
// from. A byte count is never presented as tokens.
package toolcost

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	tiktoken "github.com/pkoukk/tiktoken-go"
)

// Tokenizer names the tokenizer every count comes from.
const Tokenizer = "o200k_base (tiktoken-go v0.1.8, embedded ranks)"

// DefaultContext is the context size shares are given of when none is
// asked for: 200,000 tokens, a stated reference size, not any one
// model's (pass the model's own with --context).
const DefaultContext = 200000

// encoding loads o200k_base once, on first use, from the embedded ranks:
// the embedded loader is set before the first GetEncoding, which would
// otherwise download them.
var encoding = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(embeddedLoader{})
	enc, err := tiktoken.GetEncoding("o200k_base")
	if err != nil {
		return nil, fmt.Errorf("loading the o200k_base tokenizer: %w", err)
	}
	return enc, nil
})

// Count is the number of o200k_base tokens of text (special tokens are
// counted as text).
func Count(text string) (int, error) {
	enc, err := encoding()
	if err != nil {
		return 0, err
	}
	return len(enc.EncodeOrdinary(text)), nil
}

// Encode is the o200k_base token ids of text (for the tokenizer's own
// test vectors).
func Encode(text string) ([]int, error) {
	enc, err := encoding()
	if err != nil {
		return nil, err
	}
	return enc.EncodeOrdinary(text), nil
}

// Tool is one tool's cost.
type Tool struct {
	Name   string  `json:"name"`
	Tokens int     `json:"tokens"`
	Bytes  int     `json:"bytes"`
	Share  float64 `json:"shareOfContext"`
}

// List is a tool list's cost.
type List struct {
	Tokenizer string `json:"tokenizer"`
	// Counted says what of each tool was counted.
	Counted string `json:"counted"`
	// Context is the context size the shares are of.
	Context int     `json:"contextTokens"`
	Tools   []Tool  `json:"tools"`
	Total   int     `json:"totalTokens"`
	Share   float64 `json:"shareOfContext"`
}

// Counted says what Definition serialises.
const Counted = `name, description and inputSchema of each tool as one compact JSON object {"name","description","input_schema"}, as hosts pass a tool to a model API; title, annotations, outputSchema and _meta are left out`

// Definition is the text a host gives a model for tool (a tools/list
// entry): its name, description and input schema as one compact JSON
// object.
func Definition(tool json.RawMessage) (name string, text string, err error) {
	var t struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(tool, &t); err != nil {
		return "", "", fmt.Errorf("a tool that is no JSON object: %w", err)
	}
	def := struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"input_schema,omitempty"`
	}{t.Name, t.Description, t.InputSchema}
	b, err := json.Marshal(def)
	if err != nil {
		return "", "", fmt.Errorf("tool %q: %w", t.Name, err)
	}
	return t.Name, string(b), nil
}

// Of is the cost of tools (tools/list entries), most expensive first,
// with shares of a context of contextTokens (0: DefaultContext).
func Of(tools []json.RawMessage, contextTokens int) (*List, error) {
	return (*Cache)(nil).Of(tools, contextTokens)
}

// Cache remembers the token count of each tool definition it counted, so
// that a list listed again (a refresh, list_changed) costs only its new
// or changed tools. It keeps the last list's definitions and a few
// earlier ones (a server whose list changes on every listing does not
// grow it without end). Its zero value is ready; it is safe for
// concurrent use. A nil *Cache counts everything.
type Cache struct {
	mu     sync.Mutex
	tokens map[[sha256.Size]byte]int
}

// lookup is the remembered count of def (ok false: not counted).
func (c *Cache) lookup(key [sha256.Size]byte) (int, bool) {
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.tokens[key]
	return n, ok
}

func (c *Cache) store(key [sha256.Size]byte, n int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens == nil {
		c.tokens = map[[sha256.Size]byte]int{}
	}
	c.tokens[key] = n
}

// trim forgets every definition but keep's once the cache holds over
// twice as many.
func (c *Cache) trim(keep [][sha256.Size]byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.tokens) <= 2*len(keep)+1024 {
		return
	}
	kept := make(map[[sha256.Size]byte]int, len(keep))
	for _, k := range keep {
		if n, ok := c.tokens[k]; ok {
			kept[k] = n
		}
	}
	c.tokens = kept
}

// Of is Of, counting only the definitions c has not counted before; the
// tools are counted on every core (tokenizing is most of the time: 50,000
// tools take seconds on one).
func (c *Cache) Of(tools []json.RawMessage, contextTokens int) (*List, error) {
	if contextTokens <= 0 {
		contextTokens = DefaultContext
	}
	l := &List{Tokenizer: Tokenizer, Counted: Counted, Context: contextTokens, Tools: make([]Tool, len(tools))}
	errs := make([]error, len(tools))
	keys := make([][sha256.Size]byte, len(tools))
	count := func(i int) {
		name, text, err := Definition(tools[i])
		if err != nil {
			errs[i] = err
			return
		}
		key := sha256.Sum256([]byte(text))
		keys[i] = key
		n, ok := c.lookup(key)
		if !ok {
			if n, err = Count(text); err != nil {
				errs[i] = err
				return
			}
			c.store(key, n)
		}
		l.Tools[i] = Tool{Name: name, Tokens: n, Bytes: len(text), Share: share(n, contextTokens)}
	}
	workers := min(runtime.GOMAXPROCS(0), len(tools))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(tools); i = int(next.Add(1) - 1) {
				count(i)
			}
		})
	}
	wg.Wait()
	// The first error in list order, as one pass would have met it.
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	c.trim(keys)
	for _, t := range l.Tools {
		l.Total += t.Tokens
	}
	sort.SliceStable(l.Tools, func(i, j int) bool { return l.Tools[i].Tokens > l.Tools[j].Tokens })
	l.Share = share(l.Total, contextTokens)
	return l, nil
}

func share(n, of int) float64 { return float64(n) / float64(of) * 100 }

// WriteText writes the table: one line per tool (tokens, share, name),
// then the total; name escapes the server's text for the terminal.
func (l *List) WriteText(w io.Writer, name func(string) string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "context cost in %s tokens; share of a %s-token context\n", l.Tokenizer, thousands(l.Context))
	fmt.Fprintf(&b, "counted: %s\n", l.Counted)
	for _, t := range l.Tools {
		fmt.Fprintf(&b, "%8s  %6.2f%%  %s\n", thousands(t.Tokens), t.Share, name(t.Name))
	}
	fmt.Fprintf(&b, "%8s  %6.2f%%  total for %d tools\n", thousands(l.Total), l.Share, len(l.Tools))
	_, err := io.WriteString(w, b.String())
	return err
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
