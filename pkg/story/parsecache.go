package story

import (
	"bytes"
	"hash/maphash"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// maxKeptSource bounds the source bytes whose parsed trees a Cache keeps
// (a yaml.v3 tree weighs many times its source; the bound keeps the kept
// trees well inside validate's 72 MiB memory limit, while a corpus of real
// stories stays far below it). Files beyond it are parsed as without a
// content cache: a run over a huge tree of stories keeps its peak heap,
// and only loses sharing for the files past the bound.
const maxKeptSource = 1 << 20

// sharedCache is what the loads of one Cache share by content rather than
// by path: parsed trees, and the sources known to compile clean.
type sharedCache struct {
	trees    treeCache
	good     goodSources
	compiles compileResults
}

// treeCache holds parsed YAML trees by the bytes they were parsed from,
// for every load of one Cache: a file is parsed once per process whatever
// its path (an import shared by many stories, a story copied into several
// directories, a manifest checked again). A tree records only lines and
// columns, never a file name, so equal bytes give an equal tree; the
// parsers only read trees they did not parse alone (fileParser.owned is
// false), so a kept tree is never changed and loads running in parallel
// share it. Trees are found by a hash of their bytes and the bytes are
// compared, so only equal bytes share a tree.
type treeCache struct {
	mu    sync.Mutex
	seed  maphash.Seed
	trees map[uint64]*cachedTree
	kept  int // source bytes of the kept trees
}

type cachedTree struct {
	data []byte // the source (the bytes of the first file read with them)
	once sync.Once
	doc  *yaml.Node
	syn  *syntaxError
}

// tree returns the cached parse of data, parsing it on first use. ok is
// false when the cache is full and data was not seen before (or, in the
// unlikely case, other bytes have its hash): the caller parses it itself.
func (c *treeCache) tree(data []byte) (doc *yaml.Node, syn *syntaxError, ok bool) {
	c.mu.Lock()
	if c.trees == nil {
		c.seed = maphash.MakeSeed()
		c.trees = map[uint64]*cachedTree{}
	}
	key := maphash.Bytes(c.seed, data)
	t := c.trees[key]
	if t == nil {
		if c.kept+len(data) > maxKeptSource {
			c.mu.Unlock()
			return nil, nil, false
		}
		t = &cachedTree{data: data}
		c.trees[key] = t
		c.kept += len(data)
	}
	c.mu.Unlock()
	if !bytes.Equal(t.data, data) {
		return nil, nil, false
	}
	t.once.Do(func() { t.doc, t.syn = decodeYAML(data) })
	return t.doc, t.syn, true
}

// parseTree is parseFile through the content cache of opts.Cache: the tree
// of bytes already parsed by any load of the cache is reused. Files given
// in memory (LoadBytes, an editor overlay, standard input) never enter the
// cache, as Options.Overlay promises.
func (l *loader) parseTree(file, abs string, data []byte, shared bool) (*yaml.Node, bool) {
	if !l.treeCacheable(abs) {
		return l.parseFile(file, abs, data, shared)
	}
	doc, syn, ok := l.opts.Cache.share.trees.tree(data)
	if !ok {
		return l.parseFile(file, abs, data, shared)
	}
	l.sources[file] = data
	if syn != nil {
		l.rep.errf(Pos{File: file, Line: syn.line, Col: syn.col}, RuleYAMLSyntax, "YAML syntax error: %s", syn.msg)
		return nil, false
	}
	return doc, false
}

// goodSources records, by kind and text, the template and schema sources
// that compiled without error and whose compile reads nothing else
// (self-contained below): compiling them again, for a story copied into
// another directory or a prompt shared by several stories, can only
// succeed again, so it is skipped. Failures are never recorded: their
// messages name files and are recomputed for each story. A source of
// more than maxGoodSource bytes is not recorded (it is compiled every
// time), so the set holds at most the text of the small sources.
type goodSources struct {
	mu  sync.Mutex
	set [goodKinds]map[string]struct{}
}

type GoodKind uint8

const (
	GoodPongo  GoodKind = iota // a pongo2 template (inline or file)
	GoodSchema                 // a JSON Schema file
	goodKinds
)

// maxGoodSource bounds the size of a source goodSources records.
const maxGoodSource = 64 << 10

// selfContained reports whether compiling src reads no other file: a
// pongo2 template with no include/extends/import (nor the banned ssi), a
// JSON Schema with no $ref or $dynamicRef. Words are matched anywhere, so
// a template merely mentioning them is compiled every time.
func selfContained(kind GoodKind, src string) bool {
	switch kind {
	case GoodPongo:
		for _, w := range []string{"include", "extends", "import", "ssi"} {
			if strings.Contains(src, w) {
				return false
			}
		}
		return true
	case GoodSchema:
		return !strings.Contains(src, "Ref")
	}
	return false
}

// knownGood reports whether src of kind compiled clean before in this
// cache (always false without a cache). Only self-contained sources are
// ever recorded, so the lookup alone answers.
func (c *Cache) KnownGood(kind GoodKind, src string) bool {
	if c == nil || len(src) > maxGoodSource {
		return false
	}
	g := &c.share.good
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.set[kind][src]
	return ok
}

// knownGoodBytes is knownGood for the bytes of a file.
func (c *Cache) KnownGoodBytes(kind GoodKind, src []byte) bool {
	if c == nil || len(src) > maxGoodSource {
		return false
	}
	g := &c.share.good
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.set[kind][string(src)]
	return ok
}

func selfContainedBytes(kind GoodKind, src []byte) bool {
	switch kind {
	case GoodPongo:
		for _, w := range []string{"include", "extends", "import", "ssi"} {
			if bytes.Contains(src, []byte(w)) {
				return false
			}
		}
		return true
	case GoodSchema:
		return !bytes.Contains(src, []byte("Ref"))
	}
	return false
}

// markGoodBytes is markGood for the bytes of a file (copied only when
// recorded).
func (c *Cache) MarkGoodBytes(kind GoodKind, src []byte) {
	if c == nil || len(src) > maxGoodSource || !selfContainedBytes(kind, src) {
		return
	}
	c.share.good.record(kind, string(src))
}

// markGood records that src of kind compiled clean.
func (c *Cache) MarkGood(kind GoodKind, src string) {
	if c == nil || len(src) > maxGoodSource || !selfContained(kind, src) {
		return
	}
	c.share.good.record(kind, src)
}

func (g *goodSources) record(kind GoodKind, src string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.set[kind] == nil {
		g.set[kind] = map[string]struct{}{}
	}
	g.set[kind][src] = struct{}{}
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
	kind CompileKind
	src  string
}

type CompileKind uint8

const (
	CompiledGuard CompileKind = iota + 1
	CompiledExpr
	CompiledTemplate
)

// compiled returns compile's outcome for src, computed once per cache
// (every time without a cache).
func (c *Cache) Compiled(kind CompileKind, src string, compile func() error) error {
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
