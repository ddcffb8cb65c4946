package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/recost"
)

// Compiler compiles the schema files of one story. A schema file may lie
// anywhere inside the story directory; every $ref it holds resolves into
// <storyDir>/schemas and nowhere else. Compiled schemas are cached per
// cleaned path; a Compiler is safe for concurrent use.
type Compiler struct {
	storyDir   string // absolute
	schemasDir string // absolute, lexical (not symlink-resolved)

	patterns *recost.Budget // what every pattern of the story's schemas compiles to together

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
	// Path names the schema: the story-relative slash path for Compile,
	// the given name for CompileBytes.
	Path string
	// Raw holds the schema file's bytes exactly as read.
	Raw json.RawMessage
	// Bundled is the self-contained document kitsoki sends wherever a
	// schema travels (bundle.go); it validates exactly what Raw validates.
	Bundled json.RawMessage

	compiled *jsonschema.Schema
	names    docNames // for the library's URLs in messages
}

// NewCompiler roots all schema loading at storyDir (see [Compiler]). The
// directory need not exist yet; Compile reports it.
func NewCompiler(storyDir string) *Compiler { return NewStoryCompiler(storyDir, nil) }

// NewStoryCompiler is NewCompiler whose schemas' patterns compile within
// patterns, the story's budget (story.Story.Patterns) that its fixtures,
// cassettes and profile share; nil is a budget of the Compiler's own.
func NewStoryCompiler(storyDir string, patterns *recost.Budget) *Compiler {
	if patterns == nil {
		patterns = recost.NewBudget()
	}
	abs, err := filepath.Abs(storyDir)
	if err != nil {
		abs = filepath.Clean(storyDir)
	}
	return &Compiler{
		storyDir:   abs,
		schemasDir: filepath.Join(abs, "schemas"),
		patterns:   patterns,
		cache:      map[string]*compileEntry{},
	}
}

// Compile compiles the schema at path: relative to the story directory
// ("schemas/verdict.json") or absolute inside it. The draft is 2020-12
// unless $schema names another. Errors are *CompileError values.
func (c *Compiler) Compile(p string) (*Schema, error) { return c.compileWith(nil, p) }

// compileWith is Compile reading through files (nil: files of its own).
func (c *Compiler) compileWith(files *rootFiles, p string) (*Schema, error) {
	rel, err := c.storyRel(p)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e, ok := c.cache[rel]
	if !ok {
		e = &compileEntry{}
		c.cache[rel] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.s, e.err = c.compile(files, rel) })
	return e.s, e.err
}

// Session serves several Compile calls made together (one story's
// check): the story's directories are opened once and each file
// is read once. A file changed while a Session is open is not read again;
// Close it when the calls are done. A Session is safe for concurrent use.
type Session struct {
	c     *Compiler
	files *rootFiles
}

// Session opens a Session on the Compiler's story (lazily: nothing is
// opened before the first read).
func (c *Compiler) Session() *Session {
	return &Session{c: c, files: newRootFiles(c.storyDir)}
}

// Compile is Compiler.Compile through the session.
func (s *Session) Compile(p string) (*Schema, error) { return s.c.compileWith(s.files, p) }

// Close releases the session's directories and the bytes it kept.
func (s *Session) Close() { s.files.close() }

// storyRel maps a caller's path to a slash path relative to the story
// directory, or fails without touching the filesystem.
func (c *Compiler) storyRel(p string) (string, error) {
	if p == "" {
		return "", &CompileError{File: p, Message: "empty schema path; give a path like schemas/verdict.json"}
	}
	if u, err := url.Parse(p); err == nil && len(u.Scheme) > 1 {
		return "", &CompileError{File: p, Message: fmt.Sprintf("schema path is a %s: URL; only files inside the story directory %s can be compiled", u.Scheme, c.storyDir), outside: true}
	}
	var abs string
	if filepath.IsAbs(p) {
		abs = filepath.Clean(p)
	} else {
		abs = filepath.Join(c.storyDir, p)
	}
	rel, ok := within(c.storyDir, abs)
	if !ok && filepath.IsAbs(p) {
		// The caller may hold the symlink-resolved spelling of the story
		// directory; reading still goes through the os.Root.
		if real, err := filepath.EvalSymlinks(c.storyDir); err == nil {
			rel, ok = within(real, abs)
		}
	}
	if !ok {
		return "", &CompileError{File: p, Message: fmt.Sprintf("schema path is outside the story directory %s; keep schema files under schemas/", c.storyDir), outside: true}
	}
	return rel, nil
}

// within reports abs's slash path relative to root when abs is root itself
// or below it (lexically, after cleaning).
func within(root, abs string) (string, bool) {
	r, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func (c *Compiler) compile(files *rootFiles, rel string) (*Schema, error) {
	l := newRootLoader(c, files, rel)
	defer l.close()
	raw, err := l.read(rel)
	if err != nil {
		return nil, err
	}
	doc, n, err := decodeSchema(rel, raw)
	if err != nil {
		return nil, err
	}
	if err := l.charge(rel, n); err != nil {
		return nil, err
	}
	jc, sch, err := compileDoc(l, c.patterns, &l.refScanner, l.docNames, doc, func() jsonschema.URLLoader { return newRootLoader(c, l.files, rel) })
	if err != nil {
		return nil, err
	}
	bundled, err := bundle(l, jc, raw, doc)
	if err != nil {
		return nil, err
	}
	return &Schema{Path: rel, Raw: json.RawMessage(raw), Bundled: json.RawMessage(bundled), compiled: sch, names: l.docNames}, nil
}

// CompileBytes compiles a self-contained schema held in memory. Only
// references inside the document and the standard metaschemas resolve;
// any other $ref fails naming the ref. name labels the schema in messages.
func CompileBytes(name string, raw []byte) (*Schema, error) {
	doc, _, err := decodeSchema(name, raw)
	if err != nil {
		return nil, err
	}
	l := newMemLoader(name)
	_, sch, err := compileDoc(l, recost.NewBudget(), &l.refScanner, l.docNames, doc, func() jsonschema.URLLoader { return newMemLoader(name) })
	if err != nil {
		return nil, err
	}
	cp := bytes.Clone(raw)
	return &Schema{Path: name, Raw: json.RawMessage(cp), Bundled: json.RawMessage(cp), compiled: sch, names: l.docNames}, nil
}

// compileDoc scans doc's refs, then has the library compile it through l;
// library errors become positioned CompileErrors (scratch makes loaders
// for firstBroken).
func compileDoc(l jsonschema.URLLoader, patterns *recost.Budget, sc *refScanner, names docNames, doc any, scratch func() jsonschema.URLLoader) (*jsonschema.Compiler, *jsonschema.Schema, error) {
	if err := sc.scan(names.rootURL, names.rootName, doc); err != nil {
		return nil, nil, err
	}
	convert := func(err error) error { return convertCompileErr(names.rootName, sc.sites, err, names.describe) }
	jc := newLibraryCompiler(l, patterns)
	if err := jc.AddResource(names.rootURL, doc); err != nil {
		return nil, nil, convert(err)
	}
	sch, err := jc.Compile(names.rootURL)
	if err != nil {
		return nil, nil, convert(firstBroken(err, sc.sites, names.rootURL, doc, func() *jsonschema.Compiler { return newLibraryCompiler(scratch(), patterns) }))
	}
	if err := refCycle(sch, names); err != nil {
		return nil, nil, err
	}
	if err := neverValid(sch, names); err != nil {
		return nil, nil, err
	}
	return jc, sch, nil
}

// newLibraryCompiler is the library's compiler as kitsoki configures it:
// draft 2020-12 for a file without $schema, every reference read through l,
// every pattern compiled within patterns.
func newLibraryCompiler(l jsonschema.URLLoader, patterns *recost.Budget) *jsonschema.Compiler {
	jc := jsonschema.NewCompiler()
	jc.DefaultDraft(jsonschema.Draft2020)
	jc.UseLoader(l)
	jc.UseRegexpEngine(boundedRegexp(patterns))
	return jc
}

// decodeSchema parses schema bytes keeping number precision, and returns
// how many JSON values they hold (MaxSchemaValues).
func decodeSchema(name string, raw []byte) (any, int64, error) {
	n, err := jsoncost.Values(raw, MaxSchemaValues)
	if err == nil && n > MaxSchemaValues {
		return nil, 0, &CompileError{File: name, Message: tooManyValues}
	}
	v, perr := decodeJSON(raw)
	if perr != nil {
		return nil, 0, &CompileError{File: name, Message: "not valid JSON: " + perr.Message + "; fix the schema file's syntax"}
	}
	if nestedOver(v, MaxSchemaDepth) {
		return nil, 0, &CompileError{File: name, Message: fmt.Sprintf("the schema nests objects and arrays more than %d levels deep; move deep parts under $defs and refer to them with $ref", MaxSchemaDepth)}
	}
	return v, n, nil
}

// MaxSchemaValues bounds the JSON values of a schema with the files its
// references load, and MaxStorySchemaValues those of every schema one
// Session compiles: the library's compile time grows with the square of
// the subschemas. Real schemas hold a few thousand values at most.
const (
	MaxSchemaValues      = 10_000
	MaxStorySchemaValues = 100_000
)

var (
	tooManyValues      = fmt.Sprintf("the schema holds more than %d JSON values with the files its $refs load (compiling costs the square of its subschemas); real schemas hold a few thousand: make it smaller", MaxSchemaValues)
	tooManyStoryValues = fmt.Sprintf("the story's schemas hold more than %d JSON values together (compiling costs the square of their subschemas); make them smaller", MaxStorySchemaValues)
)

// MaxSchemaDepth bounds how deep a schema file nests objects and arrays:
// the library checks a schema against its metaschema once per level it is
// nested under. Real schemas nest about ten levels.
const MaxSchemaDepth = 128

// nestedOver reports whether v nests objects and arrays deeper than max.
func nestedOver(v any, max int) bool {
	if max < 0 {
		return true
	}
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if nestedOver(x, max-1) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if nestedOver(x, max-1) {
				return true
			}
		}
	}
	return false
}
