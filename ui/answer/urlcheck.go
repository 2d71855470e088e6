package answer

import (
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// URLCheck is what a person should know about a URL before opening it.
type URLCheck struct {
	// URL is the URL as given.
	URL string
	// Scheme and Host (lower case, as given: ASCII or punycode) come from
	// the parsed URL; Unicode is the host with punycode labels decoded.
	Scheme, Host, Unicode string
	// Domain is the host's last two labels (three when the second to last
	// is a common second-level label like "co"): the part that says who
	// runs the site.
	Domain string
	// Warnings are reasons for care, most serious first.
	Warnings []string
	// Valid is false when the URL does not parse or has no host.
	Valid bool
}

// CheckURL inspects a URL a server asks the person to open, against the
// message shown with it.
func CheckURL(raw, message string) URLCheck {
	c := URLCheck{URL: raw}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		c.Warnings = append(c.Warnings, "this is not a valid web address: do not open it")
		return c
	}
	c.Valid = true
	c.Scheme, c.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Hostname())
	c.Unicode = decodeHost(c.Host)
	c.Domain = registrable(c.Unicode)
	switch c.Scheme {
	case "https":
	case "http":
		c.Warnings = append(c.Warnings, "plain http: the page is not encrypted")
	default:
		c.Warnings = append(c.Warnings, "the scheme is "+c.Scheme+":, not a web page")
	}
	if u.User != nil {
		c.Warnings = append(c.Warnings, "the address carries a user name before the host (“"+u.User.Username()+"@”): the real host is "+c.Host)
	}
	if c.Unicode != c.Host {
		c.Warnings = append(c.Warnings, "the host is punycode ("+c.Host+"): it reads as “"+c.Unicode+"”, which may imitate another name")
	} else if !ascii(c.Host) {
		c.Warnings = append(c.Warnings, "the host has non-ASCII characters, which may imitate another name")
	}
	if net.ParseIP(c.Host) != nil {
		c.Warnings = append(c.Warnings, "the host is a bare IP address, not a name")
	}
	for _, other := range mentionedHosts(message) {
		if registrable(decodeHost(other)) != c.Domain {
			c.Warnings = append(c.Warnings, "the message mentions “"+other+"”, but the link goes to "+c.Domain)
			break
		}
	}
	if p := u.Port(); p != "" && p != "443" && p != "80" {
		c.Warnings = append(c.Warnings, "an unusual port ("+p+")")
	}
	return c
}

func ascii(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// secondLevel are labels that sit under a country code as a public suffix
// (co.uk, com.au, ...): a rough stand-in for the public suffix list.
var secondLevel = []string{"co", "com", "net", "org", "gov", "ac", "edu", "ne", "or", "go"}

// registrable is the host's last two labels, or three under a common
// second-level label.
func registrable(host string) string {
	host = strings.TrimSuffix(host, ".")
	if net.ParseIP(host) != nil {
		return host
	}
	labels := strings.Split(host, ".")
	n := 2
	if len(labels) >= 3 && len(labels[len(labels)-1]) == 2 && slices.Contains(secondLevel, labels[len(labels)-2]) {
		n = 3
	}
	if len(labels) <= n {
		return host
	}
	return strings.Join(labels[len(labels)-n:], ".")
}

// hostLike finds web addresses and bare domain names in text.
var hostLike = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:[a-z][a-z0-9+.-]*://)?((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]+))\b`)
})

// mentionedHosts lists the hosts a message names.
func mentionedHosts(message string) []string {
	var out []string
	for _, m := range hostLike().FindAllStringSubmatch(message, -1) {
		h := strings.ToLower(m[1])
		// "e.g." and "file.txt"-like words are not hosts: keep names
		// whose last label is a plausible top-level domain.
		tld := h[strings.LastIndex(h, ".")+1:]
		if len(tld) < 2 || commonWords[tld] {
			continue
		}
		out = append(out, h)
	}
	return out
}

// commonWords are file extensions that look like top-level domains.
var commonWords = map[string]bool{"txt": true, "json": true, "png": true, "jpg": true, "md": true, "go": true, "js": true, "ts": true, "py": true, "html": true, "pdf": true, "zip": true, "gz": true}

// decodeHost decodes each punycode label (xn--) of a host; a label that
// does not decode is kept as it is.
func decodeHost(host string) string {
	labels := strings.Split(host, ".")
	for i, l := range labels {
		if rest, ok := strings.CutPrefix(l, "xn--"); ok {
			if d, ok := punyDecode(rest); ok {
				labels[i] = d
			}
		}
	}
	return strings.Join(labels, ".")
}

// punyDecode is RFC 3492's decoding.
func punyDecode(s string) (string, bool) {
	const (
		base, tmin, tmax, skew, damp = 36, 1, 26, 38, 700
		initialBias, initialN        = 72, 128
	)
	var out []rune
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		out = []rune(s[:i])
		s = s[i+1:]
	}
	n, bias, i := rune(initialN), initialBias, 0
	adapt := func(delta, numPoints int, first bool) int {
		if first {
			delta /= damp
		} else {
			delta /= 2
		}
		delta += delta / numPoints
		k := 0
		for delta > ((base-tmin)*tmax)/2 {
			delta /= base - tmin
			k += base
		}
		return k + (base-tmin+1)*delta/(delta+skew)
	}
	for pos := 0; pos < len(s); {
		oldi, w := i, 1
		for k := base; ; k += base {
			if pos >= len(s) {
				return "", false
			}
			c := s[pos]
			pos++
			var digit int
			switch {
			case c >= '0' && c <= '9':
				digit = int(c-'0') + 26
			case c >= 'a' && c <= 'z':
				digit = int(c - 'a')
			case c >= 'A' && c <= 'Z':
				digit = int(c - 'A')
			default:
				return "", false
			}
			i += digit * w
			t := k - bias
			if t < tmin {
				t = tmin
			} else if t > tmax {
				t = tmax
			}
			if digit < t {
				break
			}
			w *= base - t
			if w > 1<<24 || i > 1<<28 {
				return "", false
			}
		}
		bias = adapt(i-oldi, len(out)+1, oldi == 0)
		n += rune(i / (len(out) + 1))
		i %= len(out) + 1
		if n > unicode.MaxRune {
			return "", false
		}
		out = append(out[:i], append([]rune{n}, out[i:]...)...)
		i++
	}
	return string(out), true
}
