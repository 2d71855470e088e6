package record

import (
	"net/url"
	"regexp"
	"strings"
)

// secretName matches option names whose values are secrets.
var secretName = regexp.MustCompile(`(?i)(key|token|secret|passw|pwd|auth|credential|cookie|session)`)

// RedactArgs returns args with the values of secret-looking options
// replaced by Redacted: --token=VALUE, --api-key VALUE (the word after an
// option whose name looks secret), and the password of a URL. With keep
// set, args is returned unchanged.
func RedactArgs(args []string, keep bool) []string {
	if keep || args == nil {
		return args
	}
	out := make([]string, len(args))
	afterSecret := false
	for i, a := range args {
		out[i] = a
		switch {
		case afterSecret && !strings.HasPrefix(a, "-"):
			out[i] = Redacted
		case strings.HasPrefix(a, "-"):
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if secretName.MatchString(name) && hasValue {
				out[i] = a[:strings.Index(a, "=")+1] + Redacted
			}
		default:
			out[i] = redactURL(a)
		}
		afterSecret = false
		if strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && secretName.MatchString(strings.TrimLeft(a, "-")) {
			afterSecret = true
		}
	}
	return out
}

// redactURL hides the password of a URL with user information.
func redactURL(s string) string {
	if !strings.Contains(s, "://") || !strings.Contains(s, "@") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); !ok {
		return s
	}
	u.User = url.UserPassword(u.User.Username(), Redacted)
	return u.String()
}
