package record

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// secretName matches names (of options, variables, headers, URL query
// parameters, JSON members) whose values are secrets.
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(key|token|secret|passw|passphrase|(^|[-_.])pass($|[-_.])|pwd|auth|credential|cookie|session|bearer|private|signature|sig$)`)
})

// pattern is one form a secret takes in free text, and how a match is
// rewritten.
type pattern struct {
	re      *regexp.Regexp
	replace func(match []string) string
}

// secretPatterns is the one list of the forms secrets take in free text,
// applied by every redaction: recordings (RedactArgs), the network view
// and its exports (RedactHeader, RedactURL), and any screen (RedactText).
var secretPatterns = sync.OnceValue(func() []pattern {
	return []pattern{
		// Well-known token literals: GitHub (ghp_, gho_, ghu_, ghs_, ghr_,
		// github_pat_), OpenAI and Anthropic (sk-...), Stripe (sk_live_,
		// rk_test_, ...), Slack (xoxb-, xapp-, ...), AWS access key ids
		// (AKIA...), GitLab (glpat-, gldt-, ...), Google API keys (AIza...),
		// npm (npm_), Hugging Face (hf_), PyPI (pypi-).
		{regexp.MustCompile(`gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|sk-[A-Za-z0-9_-]{16,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|xox[abposr]-[A-Za-z0-9-]{8,}|xapp-[A-Za-z0-9-]{8,}|AKIA[0-9A-Z]{16}|gl(?:pat|dt|rt|ptt|cbt|soat|ft)-[A-Za-z0-9_-]{10,}|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_-]{40,}`),
			func([]string) string { return Redacted }},
		// JSON Web Tokens: base64url header and payload, both JSON objects
		// ("eyJ"), and a signature.
		{regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`),
			func([]string) string { return Redacted }},
		// A credential after an authorization scheme ("Bearer abc",
		// "Basic dXNlcjpw"): the scheme stays. A challenge's parameters
		// (Bearer realm="x") are not credentials and stay.
		{regexp.MustCompile(`(?i)(\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/-]{6,}=*($|[\s,;])`),
			func(m []string) string { return m[1] + Redacted + m[2] }},
		// A JSON member whose name looks secret, with a string value
		// ({"apiKey":"..."}, --config={"token":"..."}): the value.
		{regexp.MustCompile(`("((?:[^"\\]|\\.)*)"\s*:\s*)"(?:[^"\\]|\\.)*"`),
			func(m []string) string {
				if secretName().MatchString(m[2]) {
					return m[1] + `"` + Redacted + `"`
				}
				return m[0]
			}},
	}
})

// RedactText replaces every secret of secretPatterns in s: the text of a
// screen or an export that may hold one.
func RedactText(s string) string {
	for _, p := range secretPatterns() {
		if !p.re.MatchString(s) {
			continue
		}
		s = p.re.ReplaceAllStringFunc(s, func(match string) string {
			return p.replace(p.re.FindStringSubmatch(match))
		})
	}
	return s
}

// headerLike matches an argument that is an HTTP header ("Authorization:
// Bearer ...", "X-Api-Key: ...") given without -H.
var headerLike = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+:\s`) })

// RedactArgs returns args with secret values replaced by Redacted. A
// demanding reader of a recording expects none of these to survive:
//
//   - the value of an option whose name looks secret: --token=VALUE,
//     --api-key VALUE (the word after it), and the word after -p (a
//     password, as mysql and sshpass take it; docker's -p port is hidden
//     too, which costs a recording nothing);
//   - the value after -e, --env or --env= (NAME=VALUE, as docker run takes
//     it): every value, whatever its name;
//   - a header after -H, --header or --header= whose name looks secret
//     ("Authorization: Bearer ...", "X-Api-Key: ..."): its value;
//   - a bare NAME=VALUE argument whose name looks secret;
//   - in a URL: the password and the values of query parameters whose
//     names look secret (?api_key=, ?token=);
//   - a bare "Name: value" argument whose name looks secret, and the
//     word after -k (a key);
//   - anywhere: the forms of secretPatterns: well-known token literals
//     (ghp_..., github_pat_..., sk-..., xoxb-..., AKIA..., glpat-...),
//     JWTs, the credential after "Bearer " or "Basic ", and the string
//     values of JSON members whose names look secret ({"apiKey":...},
//     --config={"token":...}).
//
// With keep set, args is returned unchanged.
func RedactArgs(args []string, keep bool) []string {
	if keep || args == nil {
		return args
	}
	out := make([]string, len(args))
	next := redactNothing
	for i, a := range args {
		out[i], next = redactArg(a, next)
		out[i] = redactTokens(out[i]) // whatever form the argument has
	}
	return out
}

// what says how an argument is redacted because of the one before it.
type what int

const (
	redactNothing what = iota
	redactWhole        // the value of a secret option
	redactEnv          // NAME=VALUE after -e or --env
	redactHeader       // "Name: value" after -H or --header
)

// redactArg redacts one argument given what the previous one asked for,
// and says what the next one needs.
func redactArg(a string, pending what) (string, what) {
	if pending != redactNothing && !strings.HasPrefix(a, "-") {
		switch pending {
		case redactWhole:
			return Redacted, redactNothing
		case redactEnv:
			return redactAssignment(a, true), redactNothing
		case redactHeader:
			return redactHeaderValue(a), redactNothing
		}
	}
	if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
		if headerLike().MatchString(a) {
			return redactHeaderValue(a), redactNothing
		}
		if strings.Contains(a, "=") && !strings.Contains(a, "://") && !strings.HasPrefix(strings.TrimSpace(a), "{") {
			return redactAssignment(a, false), redactNothing
		}
		return redactValue(a), redactNothing
	}
	name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
	prefix := a[:len(a)-len(value)]
	switch {
	case name == "e" || name == "env":
		if hasValue {
			return prefix + redactAssignment(value, true), redactNothing
		}
		return a, redactEnv
	case name == "H" || name == "header":
		if hasValue {
			return prefix + redactHeaderValue(value), redactNothing
		}
		return a, redactHeader
	case (name == "p" || name == "k") && !hasValue:
		return a, redactWhole
	case secretName().MatchString(name):
		if hasValue {
			return prefix + Redacted, redactNothing
		}
		return a, redactWhole
	case hasValue:
		return prefix + redactValue(value), redactNothing
	}
	return redactTokens(a), redactNothing
}

// redactAssignment redacts NAME=VALUE: always after -e, otherwise when the
// name looks secret; the value is scanned for URLs and tokens either way.
func redactAssignment(a string, always bool) string {
	name, value, ok := strings.Cut(a, "=")
	if !ok {
		return redactTokens(a) // -e NAME: inherited, no value here
	}
	if always || secretName().MatchString(name) {
		return name + "=" + Redacted
	}
	return name + "=" + redactValue(value)
}

// redactHeaderValue redacts "Name: value" when the name looks secret.
func redactHeaderValue(h string) string {
	name, _, ok := strings.Cut(h, ":")
	if ok && secretName().MatchString(name) {
		return name + ": " + Redacted
	}
	return redactTokens(h)
}

// redactValue redacts a value that may be a URL, or hold token literals.
func redactValue(s string) string { return redactTokens(redactURL(s)) }

// redactTokens replaces the secrets of secretPatterns.
func redactTokens(s string) string { return RedactText(s) }

// redactURL hides the password of a URL and the values of its
// secret-looking query parameters.
func redactURL(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	changed := false
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), Redacted)
			changed = true
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		for name, vals := range q {
			if secretName().MatchString(name) {
				for i := range vals {
					vals[i] = Redacted
				}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	if !changed {
		return s
	}
	return u.String()
}

// sessionIDShown is how much of a session id RedactHeader shows, and
// sessionIDMin the shortest id of which it shows that much.
const (
	sessionIDShown = 4
	sessionIDMin   = 16
)

// RedactHeader returns an HTTP header's value as a recording or a screen
// may show it:
//
//   - Redacted when the name looks secret (Authorization, Cookie,
//     Set-Cookie, X-Api-Key, ...), except WWW-Authenticate: a challenge
//     names the authorization server and the scopes, no credential;
//   - Mcp-Session-Id (any header naming a session) cut to its first four
//     characters and its length: the id is a bearer of the session, and
//     four characters tell sessions apart and find one in the server's
//     log; an id shorter than 16 characters is redacted whole;
//   - anywhere: well-known token literals, URL passwords and secret query
//     parameters (a Location, a Link).
func RedactHeader(name, value string) string {
	lower := strings.ToLower(name)
	switch {
	case lower == "www-authenticate":
		return redactValue(value)
	case strings.Contains(lower, "session") && !strings.Contains(lower, "cookie"):
		if len(value) < sessionIDMin {
			return Redacted
		}
		return value[:sessionIDShown] + "… (" + strconv.Itoa(len(value)) + " chars, " + Redacted + ")"
	case secretName().MatchString(name):
		return Redacted
	}
	return redactValue(value)
}

// recordedSessionID is the shape RedactHeader gives a session id.
var recordedSessionID = regexp.MustCompile(`^[^\s]{1,` + strconv.Itoa(sessionIDShown) + `}… \(\d+ chars, ` + regexp.QuoteMeta(Redacted) + `\)$`)

// RedactRecordedHeader is RedactHeader for a header read back from a
// recording, which the recorder redacted already (or not: a recording
// written by hand or by another tool): a value that is RedactHeader's
// own output (Redacted, a session id cut to four characters) is kept as
// it is, any other is redacted now. Every exporter shows headers so.
func RedactRecordedHeader(name, value string) string {
	if value == Redacted || recordedSessionID.MatchString(value) {
		return value
	}
	return RedactHeader(name, value)
}

// RedactURL returns rawURL with its password and the values of its
// secret-looking query parameters redacted, and token literals replaced.
func RedactURL(rawURL string) string { return redactValue(rawURL) }
