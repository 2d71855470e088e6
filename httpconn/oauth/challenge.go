package oauth

import (
	"net/http"
	"strings"
)

// Challenge is one WWW-Authenticate challenge (RFC 9110 §11.6.1): its
// scheme and auth-params, names lower-cased.
type Challenge struct {
	Scheme string
	Params map[string]string
}

// Scopes is the challenge's scope parameter split on spaces.
func (c Challenge) Scopes() []string { return strings.Fields(c.Params["scope"]) }

// BearerChallenge is the first Bearer challenge of the response's
// WWW-Authenticate headers, and whether there is one.
func BearerChallenge(h http.Header) (Challenge, bool) {
	for _, v := range h.Values("WWW-Authenticate") {
		for _, c := range ParseChallenges(v) {
			if strings.EqualFold(c.Scheme, "Bearer") {
				return c, true
			}
		}
	}
	return Challenge{}, false
}

// ParseChallenges parses a WWW-Authenticate value: challenges separated by
// commas, each a scheme followed by name=value auth-params (values a token
// or a quoted string). A token68 is skipped. Malformed input ends the parse
// with what was read so far.
func ParseChallenges(s string) []Challenge {
	var out []Challenge
	p := &challengeParser{s: s}
	for {
		p.skip(" \t,")
		scheme := p.token()
		if scheme == "" {
			return out
		}
		c := Challenge{Scheme: scheme, Params: map[string]string{}}
		p.skip(" \t")
		if p.skipToken68() {
			out = append(out, c)
			continue
		}
		for {
			p.skip(" \t")
			save := p.i
			name := p.token()
			p.skip(" \t")
			if name == "" || !p.eat('=') {
				p.i = save // a token68 or the next challenge: not a param
				break
			}
			p.skip(" \t")
			var value string
			if p.eat('"') {
				value = p.quoted()
			} else {
				value = p.token()
			}
			c.Params[strings.ToLower(name)] = value
			p.skip(" \t")
			if !p.eat(',') {
				break
			}
			p.skip(" \t,")
			if p.nextIsScheme() {
				break
			}
		}
		out = append(out, c)
		if p.i >= len(p.s) {
			return out
		}
	}
}

type challengeParser struct {
	s string
	i int
}

func (p *challengeParser) skip(chars string) {
	for p.i < len(p.s) && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *challengeParser) eat(b byte) bool {
	if p.i < len(p.s) && p.s[p.i] == b {
		p.i++
		return true
	}
	return false
}

func isTokenChar(b byte) bool {
	return b > ' ' && b < 0x7f && !strings.ContainsRune("\"(),/:;<=>?@[\\]{}", rune(b))
}

func (p *challengeParser) token() string {
	start := p.i
	for p.i < len(p.s) && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// quoted reads a quoted string's rest (the opening quote eaten).
func (p *challengeParser) quoted() string {
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '"':
			return b.String()
		case c == '\\' && p.i < len(p.s):
			b.WriteByte(p.s[p.i])
			p.i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// nextIsScheme reports whether what follows is a token not followed by
// "=": the next challenge's scheme rather than a param.
func (p *challengeParser) nextIsScheme() bool {
	save := p.i
	defer func() { p.i = save }()
	if p.token() == "" {
		return false
	}
	p.skip(" \t")
	return p.i >= len(p.s) || p.s[p.i] != '='
}

// skipToken68 skips a token68 (RFC 9110 §11.2) that is the whole of the
// challenge's credentials: one followed by a comma or the end.
func (p *challengeParser) skipToken68() bool {
	i := p.i
	for i < len(p.s) && (isAlnum(p.s[i]) || strings.IndexByte("-._~+/", p.s[i]) >= 0) {
		i++
	}
	if i == p.i {
		return false
	}
	for i < len(p.s) && p.s[i] == '=' {
		i++
	}
	j := i
	for j < len(p.s) && (p.s[j] == ' ' || p.s[j] == '\t') {
		j++
	}
	if j < len(p.s) && p.s[j] != ',' {
		return false
	}
	p.i = j
	return true
}

func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
