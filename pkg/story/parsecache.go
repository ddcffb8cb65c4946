package story

import (
	"crypto/sha256"
	"sync"

	"go.yaml.in/yaml/v3"
)

// maxKeptSource bounds the source bytes whose parsed trees a Cache keeps
// (a tree weighs some ten times its source). Files beyond it are parsed as
// without a content cache: a run over a huge tree of stories keeps its
// peak heap, and only loses sharing for the files past the bound.
const maxKeptSource = 16 << 20

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
	doc, syn, ok := c.trees.tree(data)
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
