package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"kitsoki/internal/safefile"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Compiler compiles the schema files of one story. All loading is rooted at
// <storyDir>/schemas. Compiled schemas are cached per cleaned path; a
// Compiler is safe for concurrent use.
type Compiler struct {
	storyDir   string // absolute
	schemasDir string // absolute, lexical (not symlink-resolved)

	mu    sync.Mutex
	cache map[string]*compileEntry
}

type compileEntry struct {
	once sync.Once
	s    *Schema
	err  error
}

// Schema is a compiled JSON Schema. It is immutable and safe for concurrent
// Validate calls.
type Schema struct {
	// Path names the schema: the story-relative slash path
	// ("schemas/verdict.json") for Compile, the given name for CompileBytes.
	Path string
	// Raw holds the schema file's bytes exactly as read.
	Raw json.RawMessage
	// Bundled is the self-contained document kitsoki sends wherever a
	// schema travels (bundle.go): Raw itself when the file references no
	// other file, else Raw with every referenced file inlined under $defs
	// and every $ref rewritten to a pointer into the bundle. It validates
	// exactly what Raw validates.
	Bundled json.RawMessage

	root *node
}

// NewCompiler roots all schema loading at <storyDir>/schemas: nothing outside
// it is ever read. The directory need not exist yet; Compile reports it.
func NewCompiler(storyDir string) *Compiler {
	abs, err := filepath.Abs(storyDir)
	if err != nil {
		abs = filepath.Clean(storyDir)
	}
	return &Compiler{
		storyDir:   abs,
		schemasDir: filepath.Join(abs, "schemas"),
		cache:      map[string]*compileEntry{},
	}
}

// SchemasDir returns the absolute directory every schema is loaded from.
func (c *Compiler) SchemasDir() string { return c.schemasDir }

// Compile compiles the schema at path: relative to the story directory
// ("schemas/verdict.json") or absolute inside <storyDir>/schemas. The draft
// is 2020-12 unless $schema names another. Relative $refs resolve against
// the referencing file and must stay inside the root. Errors are
// *CompileError values naming the file and, where known, the JSON pointer.
func (c *Compiler) Compile(p string) (*Schema, error) { return c.compileWith(nil, p) }

// compileWith is Compile reading through files (nil: files of its own).
func (c *Compiler) compileWith(files *rootFiles, p string) (*Schema, error) {
	rel, err := c.rootRel(p)
	if err != nil {
		if srel, ok := c.storyRel(p, err); ok {
			return c.compileStoryFile(srel)
		}
		return nil, err
	}
	e := c.entry(rel)
	e.once.Do(func() { e.s, e.err = c.compile(files, rel) })
	return e.s, e.err
}

// entry is the cache entry of key, made on first use.
func (c *Compiler) entry(key string) *compileEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cache[key]
	if !ok {
		e = &compileEntry{}
		c.cache[key] = e
	}
	return e
}

// ReadFile reads a file inside <storyDir>/schemas with the same rooting
// rules as Compile (path relative to the story directory, or absolute
// inside the root; symlinks leaving the root are refused).
func (c *Compiler) ReadFile(p string) ([]byte, error) {
	return c.readWith(nil, p)
}

func (c *Compiler) readWith(files *rootFiles, p string) ([]byte, error) {
	rel, err := c.rootRel(p)
	if err != nil {
		return nil, err
	}
	l := newRootLoader(c, files)
	defer l.close()
	return l.read(rel)
}

// Session serves several ReadFile and Compile calls made together (one
// story's check): the schemas directory is opened once for all of them
// and each file is read once, ReadFile and Compile sharing its bytes.
// Compiled schemas go to the Compiler's cache as with Compiler.Compile.
// A file changed while a Session is open is not read again; Close it when
// the calls are done. A Session is safe for concurrent use.
type Session struct {
	c     *Compiler
	files *rootFiles
}

// Session opens a Session on the Compiler's schemas directory (lazily:
// nothing is opened before the first read).
func (c *Compiler) Session() *Session {
	return &Session{c: c, files: newRootFiles(c.schemasDir)}
}

// ReadFile is Compiler.ReadFile through the session. The bytes are shared
// with the session's compiles (Schema.Raw): the caller must not change
// them.
func (s *Session) ReadFile(p string) ([]byte, error) { return s.c.readWith(s.files, p) }

// Compile is Compiler.Compile through the session.
func (s *Session) Compile(p string) (*Schema, error) { return s.c.compileWith(s.files, p) }

// Close releases the session's directory and the bytes it kept.
func (s *Session) Close() { s.files.close() }

// rootRel maps a caller's path to a slash path relative to the schemas root,
// or fails without touching the filesystem.
func (c *Compiler) rootRel(p string) (string, error) {
	if p == "" {
		return "", &CompileError{File: p, Message: "empty schema path; give a path like schemas/verdict.json"}
	}
	if u, err := url.Parse(p); err == nil && len(u.Scheme) > 1 {
		return "", &CompileError{File: p, Message: fmt.Sprintf("schema path is a %s: URL; only files under %s can be compiled", u.Scheme, c.schemasDir), outside: true}
	}
	var abs string
	if filepath.IsAbs(p) {
		abs = filepath.Clean(p)
	} else {
		abs = filepath.Join(c.storyDir, p)
	}
	rel, ok := within(c.schemasDir, abs)
	if !ok && filepath.IsAbs(p) {
		// The caller may hold the symlink-resolved spelling of the story
		// directory; reading still goes through the os.Root.
		if real, err := filepath.EvalSymlinks(c.schemasDir); err == nil {
			rel, ok = within(real, abs)
		}
	}
	if !ok {
		return "", &CompileError{File: p, Message: fmt.Sprintf("schema path is outside the story's schemas directory %s; keep schema files under schemas/", c.schemasDir), outside: true}
	}
	return rel, nil
}

// within reports abs's slash path relative to root when abs is root itself
// or below it (lexically, after cleaning).
func within(root, abs string) (string, bool) {
	r, err := filepath.Rel(root, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// display turns a root-relative slash path into the story-relative name
// used in messages and Schema.Path.
func display(rel string) string { return path.Join("schemas", rel) }

// load reads the schema file rel, decodes it and scans its $refs (the
// rooting rules): every step before an engine compiles it.
func (l *rootLoader) load(rel string) (raw []byte, doc any, u string, err error) {
	if raw, err = l.read(rel); err != nil {
		return nil, nil, "", err
	}
	if doc, err = decodeSchema(display(rel), raw); err != nil {
		return nil, nil, "", err
	}
	u = l.fileURL(rel)
	if err = l.scan(u, display(rel), doc); err != nil {
		return nil, nil, "", err
	}
	return raw, doc, u, nil
}

func (c *Compiler) compile(files *rootFiles, rel string) (*Schema, error) {
	l := newRootLoader(c, files)
	defer l.close()
	raw, doc, u, err := l.load(rel)
	if err != nil {
		return nil, err
	}
	root, err := l.engine().compileRoot(u, doc)
	if err != nil {
		return nil, err
	}
	bundled, err := c.bundle(l, rel, raw)
	if err != nil {
		return nil, err
	}
	return &Schema{Path: display(rel), Raw: json.RawMessage(raw), Bundled: json.RawMessage(bundled), root: root}, nil
}

// storyRel maps a path the schemas root refused (err) to a slash path
// relative to the story directory, when it lies inside it: with.schema is
// story-relative (contract §2), so a schema file may sit anywhere in the
// story (mcp/names.json), as upstream loads it.
func (c *Compiler) storyRel(p string, err error) (string, bool) {
	var ce *CompileError
	if !errors.As(err, &ce) || !ce.outside || p == "" {
		return "", false
	}
	if u, uerr := url.Parse(p); uerr == nil && len(u.Scheme) > 1 {
		return "", false
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(c.storyDir, p)
	}
	return within(c.storyDir, filepath.Clean(abs))
}

// compileStoryFile compiles a schema file inside the story directory but
// outside schemas/: read through an os.Root on the story directory (a
// symlink cannot lead out of it), compiled self-contained: a $ref to
// another file fails (references stay under schemas/, contract §5),
// in-document refs and the metaschemas resolve.
func (c *Compiler) compileStoryFile(rel string) (*Schema, error) {
	e := c.entry("story:" + rel)
	e.once.Do(func() {
		root, err := os.OpenRoot(c.storyDir)
		if err != nil {
			e.err = &CompileError{File: rel, Message: fmt.Sprintf("could not be read: the story directory %s cannot be opened: %v", c.storyDir, err)}
			return
		}
		defer root.Close()
		data, err := safefile.ReadRootFile(root, filepath.FromSlash(rel), safefile.Story)
		if err != nil {
			e.err = &CompileError{File: rel, Message: "could not be read: " + safefile.Reason(err) + "; the path is relative to the story directory and must stay inside it"}
			return
		}
		e.s, e.err = CompileBytes(rel, data)
		if e.err != nil && strings.Contains(e.err.Error(), "$ref") {
			e.err = fmt.Errorf("%w (a schema outside schemas/ holds only in-document references; move it under schemas/ to refer to other files)", e.err)
		}
	})
	return e.s, e.err
}

// CompileBytes compiles a self-contained schema held in memory. Only
// in-document refs ("#...") and the built-in metaschemas resolve; any other
// $ref fails naming the ref. name labels the schema in messages.
func CompileBytes(name string, raw []byte) (*Schema, error) {
	doc, err := decodeSchema(name, raw)
	if err != nil {
		return nil, err
	}
	l := &memLoader{name: name}
	u := (&url.URL{Scheme: "kitsoki-mem", Path: "/" + strings.TrimLeft(name, "/")}).String()
	if err := l.scan(u, name, doc); err != nil {
		return nil, err
	}
	root, err := l.engine(u).compileRoot(u, doc)
	if err != nil {
		return nil, err
	}
	cp := make([]byte, len(raw))
	copy(cp, raw)
	return &Schema{Path: name, Raw: json.RawMessage(cp), Bundled: json.RawMessage(cp), root: root}, nil
}

// decodeSchema parses schema bytes keeping number precision.
func decodeSchema(name string, raw []byte) (any, error) {
	v, perr := decodeJSON(raw)
	if perr != nil {
		return nil, &CompileError{File: name, Message: "invalid JSON: " + perr.Message + "; fix the schema file's syntax"}
	}
	return v, nil
}

// errors.As helper kept here so the loaders can share it.
func asCompileError(err error) (*CompileError, bool) {
	var ce *CompileError
	if errors.As(err, &ce) {
		return ce, true
	}
	return nil, false
}
