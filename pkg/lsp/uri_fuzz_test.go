package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzURIPath: any document URI a client sends is an absolute, clean path
// of at most maxPath bytes that pathURI names again, or an error quoting
// it; never a relative path, which would be the server's working
// directory's ("file:app.yaml", "file:" and, off Windows, "file:///C:/x"
// were, before).
func FuzzURIPath(f *testing.F) {
	for _, s := range []string{"file:///home/me/app.yaml", "file:app.yaml", "file:", "file://", "file:///C:/x/app.yaml",
		"file://host/x", "file:///a/../../b", "file:%2e%2e/x", "file:?q", "file:///a%00b", "file:/x#frag", "untitled:Untitled-1",
		"file:///" + strings.Repeat("a/", 2049), "FILE:///x", "file:///%E2%82%AC/%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		p, err := uriPath(uri)
		if err != nil {
			if p != "" || !strings.Contains(err.Error(), "kitsoki lsp") {
				t.Fatalf("%q: path %q with error %v", uri, p, err)
			}
			return
		}
		if !filepath.IsAbs(p) || filepath.Clean(p) != p || len(p) > maxPath {
			t.Fatalf("%q: path %q is not absolute and clean, or too long", uri, p)
		}
		if again, err := uriPath(pathURI(p)); err != nil || again != p {
			t.Fatalf("%q: path %q named as %q reads back as %q, %v", uri, p, pathURI(p), again, err)
		}
	})
}
