package schema

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// rootLoader serves one Compile call as the library's URLLoader: it reads
// only files under schemas/ (files.go), scans every document it loads for
// references before the library may follow them (refs.go), and keeps the
// documents it served for bundling.
type rootLoader struct {
	refScanner
	docNames
	c      *Compiler
	files  *rootFiles
	own    bool // files opened for this loader alone
	loaded []loadedDoc
	values int64 // JSON values of the documents loaded (MaxSchemaValues)
}

// loadedDoc is a file the library loaded through a reference.
type loadedDoc struct {
	rel string // story-relative slash path ("schemas/common.json")
	url string // the URL the library knows it by
	raw []byte
}

// newRootLoader reads through files, or through files of its own when
// files is nil, for the compile of the story-relative file rootRel.
func newRootLoader(c *Compiler, files *rootFiles, rootRel string) *rootLoader {
	l := &rootLoader{c: c, files: files, docNames: docNames{rootName: rootRel, schemasDir: c.schemasDir}}
	if files == nil {
		l.files, l.own = newRootFiles(c.storyDir), true
	}
	// The base relative $refs resolve against (seed 000 §5).
	l.rootURL = l.fileURL(rootRel)
	if _, under := strings.CutPrefix(rootRel, "schemas/"); !under {
		l.rootURL = (&url.URL{Scheme: "file", Path: filepath.ToSlash(c.schemasDir) + "/"}).String()
	}
	l.policy, l.inRoot = l.allow, l.servable
	return l
}

// charge counts n more JSON values of the document rel against the
// compile's MaxSchemaValues and the files' (a story check's)
// MaxStorySchemaValues.
func (l *rootLoader) charge(rel string, n int64) error {
	l.values += n
	if l.values > MaxSchemaValues {
		return &CompileError{File: rel, Message: tooManyValues}
	}
	if l.files.charge(n) > MaxStorySchemaValues {
		return &CompileError{File: rel, Message: tooManyStoryValues}
	}
	return nil
}

func (l *rootLoader) close() {
	if l.own {
		l.files.close()
	}
}

// fileURL is the absolute file URL of a story-relative slash path.
func (l *rootLoader) fileURL(rel string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(l.c.storyDir, filepath.FromSlash(rel)))}).String()
}

// read reads a story-relative file; errors name the file and say how to
// fix the path.
func (l *rootLoader) read(rel string) ([]byte, error) {
	data, reason := l.files.read(rel)
	if reason != "" {
		if reason == reasonMissing {
			reason = "does not exist; check the path (it is relative to the story directory)"
		}
		return nil, &CompileError{File: rel, Message: reason, outside: isEscapeReason(reason)}
	}
	return data, nil
}

func isEscapeReason(r string) bool { return r == reasonEscapesSchemas || r == reasonEscapesStory }

// Load serves the library the documents references lead to, applying the
// rooting rule again itself.
func (l *rootLoader) Load(rawURL string) (any, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	rel, ok := l.relOf(u)
	if !ok {
		return nil, &loadError{msg: fmt.Sprintf("refused: %s is outside the story's schemas directory %s; schemas are never fetched from the network or read from elsewhere", rawURL, l.c.schemasDir), outside: true}
	}
	data, reason := l.files.read(rel)
	switch {
	case reason == reasonMissing:
		return nil, &loadError{msg: rel + " does not exist (a relative $ref resolves against the file holding it)"}
	case reason != "":
		return nil, &loadError{msg: rel + " " + reason, outside: isEscapeReason(reason)}
	}
	doc, n, err := decodeSchema(rel, data)
	if err != nil {
		return nil, err
	}
	if err := l.charge(rel, n); err != nil {
		return nil, &loadError{msg: err.Error()}
	}
	if err := l.scan(rawURL, rel, doc); err != nil {
		return nil, err
	}
	l.loaded = append(l.loaded, loadedDoc{rel: rel, url: rawURL, raw: data})
	return doc, nil
}

func (l *rootLoader) allow(site refSite, t *url.URL) string {
	if t.Scheme == "file" {
		if _, ok := l.relOf(t); ok {
			return ""
		}
		return fmt.Sprintf("$ref %q resolves outside the story's schemas directory %s; keep referenced schemas under schemas/ and refer to them with a relative path", site.ref, l.c.schemasDir)
	}
	return fmt.Sprintf("$ref %q is a %s: URL; schemas are never fetched from the network; copy the schema under schemas/ and refer to it with a relative path", site.ref, t.Scheme)
}

// servable reports whether a URL names a file the loader could serve.
func (l *rootLoader) servable(u *url.URL) bool {
	_, ok := l.relOf(u)
	return ok
}

// memLoader serves CompileBytes: nothing is ever loaded.
type memLoader struct {
	refScanner
	docNames
}

func newMemLoader(name string) *memLoader {
	l := &memLoader{docNames: docNames{rootName: name, rootURL: (&url.URL{Scheme: "kitsoki-mem", Path: "/" + strings.TrimLeft(name, "/")}).String()}}
	// Nothing is refused before the library follows a reference (one in a
	// subschema nothing uses stays unresolved); Load refuses the rest.
	l.policy = func(refSite, *url.URL) string { return "" }
	return l
}

func (l *memLoader) Load(string) (any, error) {
	return nil, &loadError{msg: fmt.Sprintf("refused: it points outside the in-memory schema %q, which must be self-contained (use in-document refs like \"#/$defs/x\")", l.rootName), outside: true}
}

// loadError is a loader refusal or read failure, reported at the ref.
type loadError struct {
	msg     string
	outside bool
}

func (e *loadError) Error() string { return e.msg }

// docNames turns the URLs the library uses back into the names messages
// give: the compiled document's name, a file's story-relative path.
type docNames struct {
	rootURL    string // the compiled document's URL
	rootName   string // its name in messages
	schemasDir string // absolute; "" for an in-memory schema
}

// relOf maps a file URL inside schemas/ to its story-relative slash path.
func (n docNames) relOf(u *url.URL) (string, bool) {
	if n.schemasDir == "" || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return "", false
	}
	r, ok := within(n.schemasDir, filepath.Clean(filepath.FromSlash(u.Path)))
	if !ok {
		return "", false
	}
	return path.Join("schemas", r), true
}

// describe maps a library URL to the file and JSON pointer it names.
func (n docNames) describe(raw string) (string, string) {
	doc, frag, _ := strings.Cut(raw, "#")
	ptr := unescapeFragment(frag)
	if doc == n.rootURL {
		return n.rootName, ptr
	}
	if u, err := url.Parse(doc); err == nil {
		if rel, ok := n.relOf(u); ok {
			return rel, ptr
		}
	}
	return doc, ptr
}

// name is describe as one "file#pointer" string.
func (n docNames) name(raw string) string {
	f, p := n.describe(raw)
	if p != "" {
		return f + "#" + p
	}
	return f
}
