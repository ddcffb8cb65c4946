package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
)

// rootLoader serves one Compile call: it reads files only through an
// os.Root opened on the schemas directory (so symlinks leaving it are
// refused by the kernel-level walk; files.go), and scans every document it loads for
// references before the JSON Schema compiler may follow them.
type rootLoader struct {
	refScanner
	c     *Compiler
	files *rootFiles
	own   bool // files opened for this loader alone
}

// newRootLoader reads through files, or through files of its own when
// files is nil.
func newRootLoader(c *Compiler, files *rootFiles) *rootLoader {
	l := &rootLoader{c: c, files: files}
	if files == nil {
		l.files, l.own = newRootFiles(c.schemasDir), true
	}
	l.policy = l.allow
	return l
}

func (l *rootLoader) close() {
	if l.own {
		l.files.close()
	}
}

// fileURL is the absolute file URL of a root-relative slash path.
func (l *rootLoader) fileURL(rel string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(l.c.schemasDir, filepath.FromSlash(rel)))}).String()
}

// relOf maps a file URL back to a root-relative slash path.
func (l *rootLoader) relOf(u *url.URL) (string, bool) {
	if u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return "", false
	}
	return within(l.c.schemasDir, filepath.Clean(filepath.FromSlash(u.Path)))
}

// read reads a root-relative file through the os.Root; errors name the file
// and say how to fix a top-level schema path.
func (l *rootLoader) read(rel string) ([]byte, error) {
	data, reason := l.readRooted(rel)
	if reason != "" {
		if reason == reasonMissing {
			reason = "does not exist; check the path (it is relative to the story directory and must lie under schemas/)"
		}
		return nil, &CompileError{File: display(rel), Message: reason, outside: reason == reasonEscapes}
	}
	return data, nil
}

const (
	reasonMissing = "does not exist"
	reasonEscapes = "could not be read: it is a symlink leading outside the schemas directory; copy the schema into schemas/ instead"
)

// readRooted returns the file's bytes, or a reason it could not be read.
func (l *rootLoader) readRooted(rel string) ([]byte, string) { return l.files.readRooted(rel) }

// Load serves the engine the documents references lead to (the scanner
// allowed them).
// It re-checks the rooting rule itself: nothing outside the root is read.
func (l *rootLoader) Load(rawURL string) (any, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	rel, ok := l.relOf(u)
	if !ok {
		return nil, &loadError{msg: fmt.Sprintf("refused: %s is outside the story's schemas directory %s; schemas are never fetched from the network or read from elsewhere", rawURL, l.c.schemasDir), outside: true}
	}
	data, reason := l.readRooted(rel)
	if reason == reasonMissing {
		return nil, &loadError{msg: display(rel) + " does not exist (a relative $ref resolves against the file holding it)"}
	} else if reason != "" {
		return nil, &loadError{msg: display(rel) + " " + reason, outside: reason == reasonEscapes}
	}
	doc, err := decodeSchema(display(rel), data)
	if err != nil {
		return nil, err
	}
	if err := l.scan(l.fileURL(rel), display(rel), doc); err != nil {
		return nil, err
	}
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

// describe maps a library URL to (file, pointer) for messages.
func (l *rootLoader) describe(raw string) (string, string) {
	u, err := url.Parse(raw)
	if err != nil {
		return raw, ""
	}
	if rel, ok := l.relOf(u); ok {
		return display(rel), u.Fragment
	}
	return raw, u.Fragment
}

// engine builds the compiler for one Compile call over this loader.
func (l *rootLoader) engine() *engine {
	return newEngine(l, func(u string) string {
		f, _ := l.describe(u)
		return f
	}, func(u *url.URL) bool {
		_, ok := l.relOf(u)
		return ok
	})
}

// memLoader serves CompileBytes: nothing is ever loaded.
type memLoader struct {
	refScanner
	name string
}

// engine builds the compiler for the in-memory document at docURL.
func (l *memLoader) engine(docURL string) *engine {
	return newEngine(l, func(u string) string {
		if u == docURL {
			return l.name
		}
		return u
	}, nil)
}

func (l *memLoader) Load(rawURL string) (any, error) {
	return nil, &loadError{msg: fmt.Sprintf("refused: %s is outside the in-memory schema %q", rawURL, l.name), outside: true}
}

// loadError is a loader refusal or read failure, reported at the ref.
type loadError struct {
	msg     string
	outside bool
}

func (e *loadError) Error() string { return e.msg }

func (l *memLoader) scan(docURL, file string, doc any) error {
	l.policy = func(site refSite, _ *url.URL) string {
		return fmt.Sprintf("$ref %q points outside this schema; an in-memory schema must be self-contained (use in-document refs like \"#/$defs/x\")", site.ref)
	}
	return l.refScanner.scan(docURL, file, doc)
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func isEscapeErr(err error) bool {
	e := unwrapPathErr(err)
	return e != nil && e.Error() == "path escapes from parent"
}
