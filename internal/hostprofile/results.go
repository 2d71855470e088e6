package hostprofile

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcptui/mcptui/internal/toolcost"
)

// This file is the one place that judges a tool result against the hosts'
// caps: check's host rules and the inspector's marks (the catalog's result
// page, pane 1's row) all read it.

// ResultText is the text of a tools/call result that a host hands the
// model, and counts against its cap: its text items and the text of its
// embedded resources, in order ("" when result is no result object).
func ResultText(result json.RawMessage) string {
	var res struct {
		Content []struct {
			Text     string `json:"text"`
			Resource *struct {
				Text string `json:"text"`
			} `json:"resource"`
		} `json:"content"`
	}
	if json.Unmarshal(result, &res) != nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
		if c.Resource != nil {
			b.WriteString(c.Resource.Text)
		}
	}
	return b.String()
}

// ResultSize is a result text's size: Tokens counted in its first Counted
// bytes (Partial: counting stopped there, past every cap judged), and
// Chars, its length in characters.
type ResultSize struct {
	Tokens, Counted, Chars int
	Partial                bool
}

// countChunk is how much text is counted at a time: counting that may stop
// once past the caps costs, for a result of megabytes, what its first few
// hundred kilobytes do.
const countChunk = 64 << 10

// MeasureResult counts text against hosts' caps. With whole false,
// counting stops once past the largest cap (enough to judge every host,
// for a screen that must not wait on megabytes); a text no longer in
// bytes than the smallest cap is within every cap uncounted (a token is at
// least one byte). With whole true every token is counted, whatever the
// hosts (a report; hosts may be nil).
func MeasureResult(text string, hosts []Host, whole bool) (ResultSize, error) {
	size := ResultSize{Chars: utf8.RuneCountInString(text)}
	most, least := 0, 0
	for _, h := range hosts {
		if h.ResultTokens > 0 {
			most = max(most, h.ResultTokens)
			if least == 0 || h.ResultTokens < least {
				least = h.ResultTokens
			}
		}
	}
	if text == "" || !whole && (most == 0 || len(text) <= least) {
		return size, nil
	}
	for size.Counted < len(text) && (whole || size.Tokens <= most) {
		end := min(size.Counted+countChunk, len(text))
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
		n, err := toolcost.Count(text[size.Counted:end])
		if err != nil {
			return size, fmt.Errorf("the result's size in tokens: %w", err)
		}
		size.Tokens, size.Counted = size.Tokens+n, end
	}
	size.Partial = size.Counted < len(text)
	return size, nil
}

// Over is one host's cap a tool result goes over.
type Over struct {
	// Host is the host's name; Cap its default cap in tokens and Env the
	// variable that changes it.
	Host string
	Cap  int
	Env  string
	ResultSize
	// MetaKey is set when the result goes over the size the tool declares
	// for the host in its _meta (MetaChars characters), not over Cap.
	MetaKey   string
	MetaChars float64
}

// ResultOvers are the caps of h a result of size goes over: its default
// cap in tokens, and the size toolRaw (the tool as listed; nil: not known)
// declares for it in its _meta.
func (h Host) ResultOvers(size ResultSize, toolRaw json.RawMessage) []Over {
	var out []Over
	if h.ResultTokens > 0 && size.Tokens > h.ResultTokens {
		out = append(out, Over{Host: h.Name, Cap: h.ResultTokens, Env: h.ResultEnv, ResultSize: size})
	}
	if h.ResultMetaKey == "" || toolRaw == nil {
		return out
	}
	var meta struct {
		Meta map[string]any `json:"_meta"`
	}
	if json.Unmarshal(toolRaw, &meta) == nil {
		if n, ok := meta.Meta[h.ResultMetaKey].(float64); ok && float64(size.Chars) > n {
			out = append(out, Over{Host: h.Name, ResultSize: size, MetaKey: h.ResultMetaKey, MetaChars: n})
		}
	}
	return out
}

// Amount says the result's size as counted: "about N tokens (tokenizer;
// C characters)", or what the first bytes held when counting stopped.
func (o Over) Amount() string {
	if o.Partial {
		return fmt.Sprintf("more than %d tokens in its first %d KiB (%s; %d characters in all)", o.Tokens, o.Counted>>10, toolcost.Tokenizer, o.Chars)
	}
	return fmt.Sprintf("about %d tokens (%s; %d characters)", o.Tokens, toolcost.Tokenizer, o.Chars)
}

// String says it in full, as the result page does.
func (o Over) String() string {
	if o.MetaKey != "" {
		return fmt.Sprintf("over the size the tool declares for %s: %d characters, over its _meta[%q] of %.0f", o.Host, o.Chars, o.MetaKey, o.MetaChars)
	}
	return fmt.Sprintf("over %s's result cap: %s; its default cap is %d (%s)", o.Host, o.Amount(), o.Cap, o.Env)
}

// Short says it in a few words, for a request's row: "over claude-code's
// 25k-token cap: 31,204 tokens" (">31,204" when counting stopped early).
func (o Over) Short() string {
	if o.MetaKey != "" {
		return fmt.Sprintf("over the %s chars it declares for %s: %s chars", thousands(int(o.MetaChars)), o.Host, thousands(o.Chars))
	}
	limit := thousands(o.Cap)
	if o.Cap%1000 == 0 {
		limit = fmt.Sprintf("%dk", o.Cap/1000)
	}
	more := ""
	if o.Partial {
		more = ">"
	}
	return fmt.Sprintf("over %s's %s-token cap: %s%s tokens", o.Host, limit, more, thousands(o.Tokens))
}

// thousands writes n with comma separators.
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
