package fetch

import (
	"net/url"
	"path"
	"strings"
	"testing"
)

// FuzzMirrorURL: a --mirror (or $KITSOKI_MIRROR) base and an artifact URL
// give <mirror>/<host><path>: the answer is on the mirror's scheme, user
// and host, under its base path and then the artifact's host, with the
// artifact's query; a refusal shows neither URL's password. An empty
// mirror leaves the URL as it is.
func FuzzMirrorURL(f *testing.F) {
	for _, s := range [][2]string{
		{"https://github.com/ggml-org/llama.cpp/releases/download/b9444/x.tar.gz", "https://mirror.corp/kitsoki/"},
		{"https://h/a?x=1&y=%2F", "http://ci:s3cret@m:8080"},
		{"https://h/../../other/x", "https://m/base"},
		{"https://../x", "https://m/base"}, {"https://./x", "https://m/base"},
		{"https://h/a%2F..%2F..%2Fx", "https://m/base/"},
		{"https://h/a b/ü", "https://m/%7Euser/"},
		{"https://h/x", "ftp://ci:s3cret@m"},
		{"https://h/x", ""},
		{"://bad", "https://m"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, raw, mirror string) {
		got, err := MirrorURL(raw, mirror)
		if err != nil {
			for _, s := range []string{raw, mirror} {
				if u, perr := url.Parse(s); perr == nil && u.User != nil {
					if p, ok := u.User.Password(); ok && len(p) > 2 && strings.Contains(err.Error(), p) {
						t.Fatalf("refusal %q shows the password of %q", err, s)
					}
				}
			}
			return
		}
		if mirror == "" {
			if got != raw {
				t.Fatalf("no mirror: %q became %q", raw, got)
			}
			return
		}
		u, _ := url.Parse(raw)
		m, _ := url.Parse(mirror)
		g, perr := url.Parse(got)
		if perr != nil {
			t.Fatalf("%q does not parse: %v", got, perr)
		}
		if g.Scheme != m.Scheme || g.Host != m.Host || g.User.String() != m.User.String() || g.RawQuery != u.RawQuery {
			t.Fatalf("%q on %q gave %q: not on the mirror, or the query changed", raw, mirror, got)
		}
		if under := path.Join("/", m.Path, u.Host); g.Path != under && !strings.HasPrefix(g.Path, under+"/") {
			t.Fatalf("%q on %q gave %q, whose path %q is not under %q", raw, mirror, got, g.Path, under)
		}
	})
}
