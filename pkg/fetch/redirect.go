package fetch

import (
	"fmt"
	"net/http"
)

// maxRedirects is how many redirects one request may follow (Go's default).
const maxRedirects = 10

// redirectError is a redirect the fetcher refuses to follow. It is never
// retried: the same URL would redirect the same way.
type redirectError struct {
	from, to string
	why      string
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("redirect from %s to %s refused: %s", shownURL(e.from), shownURL(e.to), e.why)
}

// checkRedirect is the download's redirect policy, as a package manager's:
// any host (the sha256 pin decides whether the bytes are the pinned ones),
// never from https down to http, at most maxRedirects in a chain (see
// docs/compat/fetch-sidecar.md).
func checkRedirect(req *http.Request, via []*http.Request) error {
	prev := via[len(via)-1]
	if len(via) >= maxRedirects {
		return &redirectError{from: prev.URL.String(), to: req.URL.String(), why: fmt.Sprintf("%d redirects in a row, the limit; fix the pin url or the mirror", maxRedirects)}
	}
	if req.URL.Scheme == "https" {
		return nil
	}
	for _, r := range via {
		if r.URL.Scheme == "https" {
			return &redirectError{from: prev.URL.String(), to: req.URL.String(),
				why: "a download that started over https must stay on https (the server downgraded it to " + req.URL.Scheme + "); fix the mirror or the pin url"}
		}
	}
	return nil
}

// withRedirectPolicy returns a copy of c that applies checkRedirect before
// c's own CheckRedirect, so a client handed in by a caller follows the
// same rules.
func withRedirectPolicy(c *http.Client) *http.Client {
	cc := *c
	inner := c.CheckRedirect
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := checkRedirect(req, via); err != nil {
			return err
		}
		if inner != nil {
			return inner(req, via)
		}
		return nil
	}
	return &cc
}
