package story

import (
	"bytes"
	"errors"
	"io"
	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlfast"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"go.yaml.in/yaml/v3"
	"kitsoki/internal/yamlnode"
)

// Cache shares read and parsed files between the loads of one process:
// `kitsoki validate stories/...` parses a story imported by ten others
// once, not ten times. The parsed YAML node trees are only read after
// parsing, so loads running in parallel share them. A Cache is safe for
// concurrent use; the zero value is not usable, use NewCache. Files are
// keyed by absolute path and never re-read: a Cache lives for one command.
type Cache struct {
	mu    sync.Mutex
	files map[string]*cachedFile
}

type cachedFile struct {
	read  sync.Once
	data  []byte
	err   error // read error
	parse sync.Once
	// parsed is set once doc/syn are written (by parse).
	parsed atomic.Bool
	doc    *yaml.Node
	syn    *syntaxError
}

// syntaxError is a YAML decode error with its position.
type syntaxError struct {
	line, col int
	msg       string
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{files: map[string]*cachedFile{}} }

func (c *Cache) entry(abs string) *cachedFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.files[abs]
	if f == nil {
		f = &cachedFile{}
		c.files[abs] = f
	}
	return f
}

// readFile returns the bytes of abs, read once per cache; through root
// when it is not nil (nothing outside it is read).
func (l *loader) readFile(abs string, root *safefile.Root) ([]byte, error) {
	if b, ok := l.opts.Overlay[abs]; ok {
		l.overlay[abs] = true
		return b, nil
	}
	read := func() ([]byte, error) {
		if root != nil {
			return root.ReadFile(abs, safefile.StoryYAML)
		}
		return safefile.ReadFile(abs, safefile.StoryYAML)
	}
	if l.opts.Cache == nil {
		return read()
	}
	f := l.opts.Cache.entry(abs)
	f.read.Do(func() { f.data, f.err = read() })
	return f.data, f.err
}

// parseFile parses data, the bytes of abs (from readFile), reporting a
// syntax error under file; owned reports a tree no other load shares. The
// parsed tree of a shared file (an imports:
// child, which many stories may import) is kept in the cache and reused; a
// top manifest's or an include's tree is reused when cached but not kept:
// a large story's node tree would otherwise stay alive for the whole run.
func (l *loader) parseFile(file, abs string, data []byte, shared bool) (*yaml.Node, bool) {
	l.sources[file] = data
	var doc *yaml.Node
	var syn *syntaxError
	owned := false // a tree no other load can see: parsing may release it
	cached := l.treeCacheable(abs)
	if cached && shared {
		f := l.opts.Cache.entry(abs)
		f.parse.Do(func() { f.doc, f.syn = decodeYAML(data); f.parsed.Store(true) })
		doc, syn = f.doc, f.syn
	} else if f := l.cachedDoc(abs, cached); f != nil {
		doc, syn = f.doc, f.syn
	} else {
		doc, syn = decodeYAML(data)
		owned = true
	}
	if syn != nil {
		l.rep.errf(Pos{File: file, Line: syn.line, Col: syn.col}, RuleYAMLSyntax, "YAML syntax error: %s", syn.msg)
		return nil, false
	}
	return doc, owned
}

// cachedDoc returns the cache entry of abs when its tree was already
// parsed.
func (l *loader) cachedDoc(abs string, cached bool) *cachedFile {
	if !cached {
		return nil
	}
	l.opts.Cache.mu.Lock()
	f := l.opts.Cache.files[abs]
	l.opts.Cache.mu.Unlock()
	if f != nil && f.parsed.Load() {
		return f
	}
	return nil
}

// decodeYAML decodes one YAML document into a node tree: yamlfast's tree
// when it takes the document (the same tree as yaml.v3's, without
// comments, which nothing here reads), else yaml.v3's, whose errors are
// the ones reported.
func decodeYAML(data []byte) (*yaml.Node, *syntaxError) {
	data = yaml12Directive(data)
	if doc, ok := yamlfast.Parse(data); ok {
		return doc, nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return &yaml.Node{Kind: yaml.DocumentNode}, nil
	}
	if err == nil {
		return &doc, nil
	}
	line, msg := yamlnode.ErrLine(err)
	col := 0
	if tl, tc := findTab(data); tl > 0 && (strings.Contains(msg, "tab") || tl == line || tl == line-1) {
		line, col = tl, tc
		msg = "tab character in indentation; YAML indentation must use spaces (" + msg + ")"
	}
	if line > 0 && col == 0 {
		col = 1
	}
	return nil, &syntaxError{line: line, col: col, msg: msg}
}

// Files lists every YAML file read to load the story, its includes and its
// imported children, sorted.
func (st *Story) Files() []string {
	if st == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(st.sources))
}

// Source returns the bytes of a file read to load the story (by the name
// diagnostics use), so callers quoting lines need not read it again.
func (st *Story) Source(file string) ([]byte, bool) {
	if st == nil {
		return nil, false
	}
	b, ok := st.sources[file]
	return b, ok
}
