package catalog

import (
	"fmt"
	"strconv"
	"strings"
)

// uriTemplate is an RFC 6570 URI template (the variables are filled with
// strings; lists and maps are not needed for resource templates).
type uriTemplate struct {
	raw   string
	parts []tplPart
}

type tplPart struct {
	lit  string
	op   byte // 0 for a literal
	expr bool
	vars []tplVar
}

type tplVar struct {
	name    string
	prefix  int
	explode bool
}

// opSpec is how an operator expands.
type opSpec struct {
	first, sep string
	named      bool
	ifEmpty    string
	reserved   bool
}

var ops = map[byte]opSpec{
	0:   {"", ",", false, "", false},
	'+': {"", ",", false, "", true},
	'#': {"#", ",", false, "", true},
	'.': {".", ".", false, "", false},
	'/': {"/", "/", false, "", false},
	';': {";", ";", true, "", false},
	'?': {"?", "&", true, "=", false},
	'&': {"&", "&", true, "=", false},
}

// parseTemplate parses a URI template.
func parseTemplate(s string) (*uriTemplate, error) {
	t := &uriTemplate{raw: s}
	for len(s) > 0 {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			t.parts = append(t.parts, tplPart{lit: s})
			break
		}
		if i > 0 {
			t.parts = append(t.parts, tplPart{lit: s[:i]})
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("unclosed { in %q", t.raw)
		}
		body := s[i+1 : i+j]
		s = s[i+j+1:]
		p := tplPart{expr: true}
		if body != "" && strings.IndexByte("+#./;?&", body[0]) >= 0 {
			p.op, body = body[0], body[1:]
		}
		for _, spec := range strings.Split(body, ",") {
			v := tplVar{name: spec}
			if n, ok := strings.CutSuffix(spec, "*"); ok {
				v.name, v.explode = n, true
			}
			if k := strings.IndexByte(v.name, ':'); k >= 0 {
				n, err := strconv.Atoi(v.name[k+1:])
				if err != nil || n <= 0 {
					return nil, fmt.Errorf("bad prefix in %q", spec)
				}
				v.name, v.prefix = v.name[:k], n
			}
			if v.name == "" {
				return nil, fmt.Errorf("empty variable in %q", t.raw)
			}
			p.vars = append(p.vars, v)
		}
		t.parts = append(t.parts, p)
	}
	return t, nil
}

// names are the variables, each once, in order.
func (t *uriTemplate) names() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range t.parts {
		for _, v := range p.vars {
			if !seen[v.name] {
				seen[v.name] = true
				out = append(out, v.name)
			}
		}
	}
	return out
}

// optional reports whether a variable sits in a query-like expression
// (?, &, ;, #) whose absence still makes a URI.
func (t *uriTemplate) optional(name string) bool {
	for _, p := range t.parts {
		for _, v := range p.vars {
			if v.name == name {
				return p.op == '?' || p.op == '&' || p.op == ';' || p.op == '#'
			}
		}
	}
	return false
}

// expand fills the template. A variable missing from vals is undefined
// (skipped); an empty string is defined (RFC 6570 §3.2.1: "{?q}" with q
// empty is "?q=").
func (t *uriTemplate) expand(vals map[string]string) string {
	var b strings.Builder
	for _, p := range t.parts {
		if !p.expr {
			b.WriteString(p.lit)
			continue
		}
		spec := ops[p.op]
		first := true
		for _, v := range p.vars {
			val, ok := vals[v.name]
			if !ok {
				continue
			}
			if first {
				b.WriteString(spec.first)
				first = false
			} else {
				b.WriteString(spec.sep)
			}
			if v.prefix > 0 && len([]rune(val)) > v.prefix {
				val = string([]rune(val)[:v.prefix])
			}
			if spec.named {
				b.WriteString(v.name)
				if val == "" {
					b.WriteString(spec.ifEmpty)
					continue
				}
				b.WriteByte('=')
			}
			b.WriteString(pctEncode(val, spec.reserved))
		}
	}
	return b.String()
}

// pctEncode percent-encodes all but unreserved characters (and, when
// reserved, the reserved ones and existing escapes).
func pctEncode(s string, reserved bool) string {
	const unreserved = "-._~"
	const reservedChars = ":/?#[]@!$&'()*+,;="
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte(unreserved, c) >= 0:
			b.WriteByte(c)
		case reserved && strings.IndexByte(reservedChars, c) >= 0:
			b.WriteByte(c)
		case reserved && c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
