package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// maxPath is the longest document path the server takes (Linux's PATH_MAX).
const maxPath = 4096

// uriPath turns a file:// URI into an absolute, clean path.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("kitsoki lsp only serves file:// documents, not %q", uri)
	}
	p := u.Path
	if len(p) > maxPath {
		return "", fmt.Errorf("kitsoki lsp: a document path of %d bytes is over %d, the longest file path there is: %.80q…", len(p), maxPath, p)
	}
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && filepath.VolumeName(p[1:3]) != "" { // file:///C:/x on Windows
		p = p[1:]
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) { // file:app.yaml, file:, file:///C:/x off Windows
		return "", fmt.Errorf("kitsoki lsp serves a document by its absolute path (file:///home/me/app.yaml), not %q", uri)
	}
	return p, nil
}

// pathURI is the file:// URI of an absolute path.
func pathURI(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
