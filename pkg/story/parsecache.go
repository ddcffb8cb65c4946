package story

import (
	"bytes"
	"crypto/sha256"
	"sync"

	"go.yaml.in/yaml/v3"
)

// maxKeptSource bounds the source bytes whose parsed trees a Cache keeps
// (a yaml.v3 tree weighs some 25 times its source, so about 25 MB at the
// bound, within validate's 72 MiB memory limit; 85 real stories hold
// about 0.3 MB of distinct YAML). Files beyond it are parsed as without a
// content cache: a run over a huge tree of stories keeps its peak heap,
// and only loses sharing for the files past the bound. At 4 MiB, 40
// distinct stories of 1,000 states (5.5 MB) kept 110 MB of trees live:
// 167 MB peak RSS and 1.7 s of CPU with the collector running
// continuously at the limit, against 83 MB and 0.8 s at 1 MiB.
const maxKeptSource = 1 << 20

// sharedCache is what the loads of one Cache share by content rather than
// by path: parsed trees, and the sources known to compile clean.
type sharedCache struct {
	trees    treeCache
	good     goodSources
	compiles compileResults
}

// treeCache holds parsed YAML trees by the SHA-256 of their bytes, for
// every load of one Cache: a file is parsed once per process whatever its
// path (an import shared by many stories, a story copied into several
// directories, a manifest checked again). A tree records only lines and
// columns, never a file name, so equal bytes give an equal tree; the
// parsers only read trees they did not parse alone (fileParser.owned is
// false), so a kept tree is never changed and loads running in parallel
// share it.
type treeCache struct {
	mu    sync.Mutex
	trees map[[sha256.Size]byte]*cachedTree
	kept  int // source bytes of the kept trees
}

type cachedTree struct {
	once sync.Once
	doc  *yaml.Node
	syn  *syntaxError
}

// tree returns the cached parse of data, parsing it on first use. ok is
// false when the cache is full and data was not seen before: the caller
// parses it itself.
func (c *treeCache) tree(data []byte) (doc *yaml.Node, syn *syntaxError, ok bool) {
	key := sha256.Sum256(data)
	c.mu.Lock()
	t := c.trees[key]
	if t == nil {
		if c.kept+len(data) > maxKeptSource {
			c.mu.Unlock()
			return nil, nil, false
		}
		if c.trees == nil {
			c.trees = map[[sha256.Size]byte]*cachedTree{}
		}
		t = &cachedTree{}
		c.trees[key] = t
		c.kept += len(data)
	}
	c.mu.Unlock()
	t.once.Do(func() { t.doc, t.syn = decodeYAML(data) })
	return t.doc, t.syn, true
}

// parseTree is parseFile through the content cache of opts.Cache: the tree
// of bytes already parsed by any load of the cache is reused. Files given
// in memory (LoadBytes, an editor overlay, standard input) never enter the
// cache, as Options.Overlay promises.
func (l *loader) parseTree(file, abs string, data []byte, shared bool) (*yaml.Node, bool) {
	c := l.opts.Cache
	if c == nil || abs == "" || l.inMemory || l.overlay[abs] {
		return l.parseFile(file, abs, data, shared)
	}
	doc, syn, ok := c.share.trees.tree(data)
	if !ok {
		return l.parseFile(file, abs, data, shared)
	}
	if l.sources == nil {
		l.sources = map[string][]byte{}
	}
	l.sources[file] = data
	if syn != nil {
		l.rep.errf(Pos{File: file, Line: syn.line, Col: syn.col}, ruleYAMLSyntax, "YAML syntax error: %s", syn.msg)
		return nil, false
	}
	return doc, false
}

// goodSources records, by kind and SHA-256, the template and schema
// sources that compiled without error and whose compile reads nothing
// else (self-contained below): compiling them again, for a story copied
// into another directory or a prompt shared by several stories, can only
// succeed again, so it is skipped. Failures are never recorded: their
// messages name files and are recomputed for each story.
type goodSources struct {
	mu  sync.Mutex
	set map[goodKey]bool
}

type goodKey struct {
	kind goodKind
	sum  [sha256.Size]byte
}

type goodKind uint8

const (
	goodPongo  goodKind = iota + 1 // a pongo2 template (inline or file)
	goodSchema                     // a JSON Schema file
)

// selfContained reports whether compiling src reads no other file: a
// pongo2 template with no include/extends/import (nor the banned ssi), a
// JSON Schema with no $ref or $dynamicRef. Words are matched anywhere, so
// a template merely mentioning them is compiled every time.
func selfContained(kind goodKind, src []byte) bool {
	switch kind {
	case goodPongo:
		for _, w := range []string{"include", "extends", "import", "ssi"} {
			if bytes.Contains(src, []byte(w)) {
				return false
			}
		}
		return true
	case goodSchema:
		return !bytes.Contains(src, []byte("Ref"))
	}
	return false
}

// knownGood reports whether src of kind compiled clean before in this
// cache (always false without a cache).
func (c *Cache) knownGood(kind goodKind, src []byte) bool {
	if c == nil || !selfContained(kind, src) {
		return false
	}
	sum := sha256.Sum256(src)
	g := &c.share.good
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.set[goodKey{kind, sum}]
}

// markGood records that src of kind compiled clean.
func (c *Cache) markGood(kind goodKind, src []byte) {
	if c == nil || !selfContained(kind, src) {
		return
	}
	sum := sha256.Sum256(src)
	g := &c.share.good
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.set == nil {
		g.set = map[goodKey]bool{}
	}
	g.set[goodKey{kind, sum}] = true
}

// compileResults shares the outcome of compiling a guard, an expression or
// a {{ }} value template between the loads of one Cache: each is a pure
// function of its source (the expression library's environment is fixed),
// and its error, when there is one, says nothing of the file it came from
// (the caller positions it). The error values are only read.
type compileResults struct {
	mu  sync.Mutex
	err map[compileKey]error
}

type compileKey struct {
	kind compileKind
	src  string
}

type compileKind uint8

const (
	compiledGuard compileKind = iota + 1
	compiledExpr
	compiledTemplate
)

// compiled returns compile's outcome for src, computed once per cache
// (every time without a cache).
func (c *Cache) compiled(kind compileKind, src string, compile func() error) error {
	if c == nil {
		return compile()
	}
	r := &c.share.compiles
	k := compileKey{kind, src}
	r.mu.Lock()
	err, ok := r.err[k]
	r.mu.Unlock()
	if ok {
		return err
	}
	err = compile()
	r.mu.Lock()
	if r.err == nil {
		r.err = map[compileKey]error{}
	}
	r.err[k] = err
	r.mu.Unlock()
	return err
}
