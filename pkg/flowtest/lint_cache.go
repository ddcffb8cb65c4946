package flowtest

import (
	"crypto/sha256"
	"sync"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlfast"
	"kitsoki/pkg/diag"
)

// LintCache shares decoded fixture documents between the lints of one
// process (kitsoki validate over many stories): a document's YAML is
// decoded once whatever file holds it. A decoded tree records lines and
// columns relative to its document, never a file name, and the fixture
// parser only reads it, so equal text gives an equal, shared tree. A
// LintCache is safe for concurrent use; the zero value is ready, and a nil
// *LintCache decodes every document afresh.
type LintCache struct {
	mu   sync.Mutex
	docs map[[sha256.Size]byte]*cachedDoc
	kept int // text bytes of the kept documents
}

// maxKeptDocs bounds the text whose decoded trees a LintCache keeps (a
// tree weighs some twelve times its text); documents past it are decoded
// afresh, so a huge run keeps its peak heap.
const maxKeptDocs = 4 << 20

type cachedDoc struct {
	once sync.Once
	doc  *yaml.Node
	err  error

	mu    sync.Mutex
	built map[[2]int]*builtDoc // by the document's line and column offset in its file
}

// builtDoc is what one document reads as (readDoc) with its positions
// file-less (File ""): the fixture, nil for a document that is not a
// flow, and the parse findings. It is shared, read only, by every file
// holding the same text at the same place; rebase names the file.
type builtDoc struct {
	once sync.Once
	fx   *Fixture
	ds   []diag.Diagnostic
}

// entry returns the cache entry of a document's text, decoding it once;
// nil when c is nil or full.
func (c *LintCache) entry(text string) *cachedDoc {
	if c == nil {
		return nil
	}
	key := sha256.Sum256([]byte(text))
	c.mu.Lock()
	d := c.docs[key]
	if d == nil {
		if c.kept+len(text) > maxKeptDocs {
			c.mu.Unlock()
			return nil
		}
		c.kept += len(text)
		if c.docs == nil {
			c.docs = map[[sha256.Size]byte]*cachedDoc{}
		}
		d = &cachedDoc{}
		c.docs[key] = d
	}
	c.mu.Unlock()
	d.once.Do(func() { d.doc, d.err = decodeDoc(text) })
	return d
}

// read is readDoc through c: a document read before at the same place
// (the same text, line and column offset) is not read again; its fixture
// and findings are rebased onto file.
func (c *LintCache) read(file string, pc piece) (*Fixture, []diag.Diagnostic) {
	d := c.entry(pc.text)
	if d == nil {
		return readDoc(file, pc, d)
	}
	d.mu.Lock()
	if d.built == nil {
		d.built = map[[2]int]*builtDoc{}
	}
	at := [2]int{pc.line, pc.colOff}
	b := d.built[at]
	if b == nil {
		b = &builtDoc{}
		d.built[at] = b
	}
	d.mu.Unlock()
	b.once.Do(func() { b.fx, b.ds = readDoc("", pc, d) })
	return b.rebase(file)
}

// rebase returns b's fixture (a shallow copy: File set, the rest shared)
// and findings for file. The fixture's inner positions stay file-less:
// lint names the file of what it reports at them.
func (b *builtDoc) rebase(file string) (*Fixture, []diag.Diagnostic) {
	var ds []diag.Diagnostic
	if len(b.ds) > 0 {
		ds = make([]diag.Diagnostic, len(b.ds))
		for i, d := range b.ds {
			d.File = file
			ds[i] = d
		}
	}
	if b.fx == nil {
		return nil, ds
	}
	fx := *b.fx
	fx.File = file
	return &fx, ds
}

// decodeDoc decodes one fixture document: yamlfast's tree when it takes
// the text (yaml.v3's tree without comments), else yaml.Unmarshal's, with
// its errors (and its zero node for a document without content).
func decodeDoc(text string) (*yaml.Node, error) {
	if doc, ok := yamlfast.ParseString(text); ok {
		return doc, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	return &doc, nil
}
