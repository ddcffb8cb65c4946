package fetch

import (
	"net/url"
	"strings"
)

// shownURL is raw as messages, logs and the resume state show it: any
// userinfo (a private mirror's user:token, or a token given as the user
// name) replaced by "xxxxx". The request itself still uses raw.
func shownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return hideUserinfo(raw)
	}
	u.User = url.User("xxxxx")
	return u.String()
}

// hideUserinfo masks a "scheme://userinfo@" prefix wherever it occurs in
// s (an unparsable URL, or an error text from the HTTP client, which
// keeps a user name given without a password).
func hideUserinfo(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+3])
		s = s[i+3:]
		end := strings.IndexAny(s, "/?# \t\n\"'")
		if end < 0 {
			end = len(s)
		}
		if at := strings.LastIndexByte(s[:end], '@'); at >= 0 {
			b.WriteString("xxxxx")
			s = s[at:]
		}
	}
}

// userinfoError masks the userinfo of every URL in an error's text,
// keeping the error itself for errors.Is and errors.As.
type userinfoError struct{ err error }

func (e *userinfoError) Error() string { return hideUserinfo(e.err.Error()) }
func (e *userinfoError) Unwrap() error { return e.err }

// maskUserinfo wraps err when its text shows a URL's userinfo.
func maskUserinfo(err error) error {
	if err == nil {
		return nil
	}
	if msg := err.Error(); hideUserinfo(msg) != msg {
		return &userinfoError{err}
	}
	return err
}
