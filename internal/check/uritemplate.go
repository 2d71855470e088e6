package check

import (
	"fmt"
	"strings"
)

// validTemplate checks a URI template against RFC 6570's grammar (levels
// 1 to 4): literals, and expressions of an optional operator and a list of
// variables, each with an optional prefix (:N) or explode (*) modifier.
func validTemplate(t string) error {
	if t == "" {
		return fmt.Errorf("empty")
	}
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == '{':
			end := strings.IndexByte(t[i:], '}')
			if end < 0 {
				return fmt.Errorf("the expression at %d has no closing }", i)
			}
			if err := validExpression(t[i+1 : i+end]); err != nil {
				return fmt.Errorf("expression {%s}: %w", t[i+1:i+end], err)
			}
			i += end + 1
		case c == '}':
			return fmt.Errorf("a } at %d closes nothing", i)
		case c == '%':
			if i+2 >= len(t) || !isHex(t[i+1]) || !isHex(t[i+2]) {
				return fmt.Errorf("a %% at %d is not a percent-encoding", i)
			}
			i += 3
		case c <= ' ' || c == 0x7f || strings.IndexByte(`"'<>\^`+"`|", c) >= 0:
			return fmt.Errorf("the character %q at %d is not allowed in a literal", c, i)
		default:
			i++
		}
	}
	return nil
}

func validExpression(e string) error {
	if e != "" && strings.IndexByte("+#./;?&", e[0]) >= 0 {
		e = e[1:]
	} else if e != "" && strings.IndexByte("=,!@|", e[0]) >= 0 {
		return fmt.Errorf("the operator %q is reserved", e[0])
	}
	if e == "" {
		return fmt.Errorf("no variable")
	}
	for _, spec := range strings.Split(e, ",") {
		name := spec
		if j := strings.IndexAny(spec, ":*"); j >= 0 {
			name = spec[:j]
			mod := spec[j:]
			if mod != "*" {
				n := mod[1:]
				if n == "" || len(n) > 4 || n[0] == '0' || strings.Trim(n, "0123456789") != "" {
					return fmt.Errorf("the modifier %q is not :1 to :9999 or *", mod)
				}
			}
		}
		if err := validVarname(name); err != nil {
			return err
		}
	}
	return nil
}

func validVarname(n string) error {
	if n == "" || n[0] == '.' || n[len(n)-1] == '.' || strings.Contains(n, "..") {
		return fmt.Errorf("the variable name %q is malformed", n)
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.':
		case c == '%' && i+2 < len(n) && isHex(n[i+1]) && isHex(n[i+2]):
			i += 2
		default:
			return fmt.Errorf("the variable name %q has the character %q", n, c)
		}
	}
	return nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// templateVars are the variable names of a valid template, in order.
func templateVars(t string) []string {
	var out []string
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			return out
		}
		e := t[i+1 : i+j]
		if e != "" && strings.IndexByte("+#./;?&", e[0]) >= 0 {
			e = e[1:]
		}
		for _, spec := range strings.Split(e, ",") {
			if k := strings.IndexAny(spec, ":*"); k >= 0 {
				spec = spec[:k]
			}
			out = append(out, spec)
		}
		t = t[i+j+1:]
	}
}
