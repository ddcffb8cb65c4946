package flowtest

import (
	"bytes"
	"hash/maphash"
	"regexp"
	"sync"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlfast"
	"kitsoki/pkg/diag"
)

// LintCache shares what fixture documents read as between the lints of
// one process (kitsoki validate over many stories): a document found
// again with the same text at the same place of its file (a story copied,
// a fixture shared) is not decoded nor read again. What is kept is the
// fixture and findings a document reads as, with file-less positions
// (builtDoc) and its text (to tell apart texts of the same hash), never
// its decoded YAML tree: a tree weighs some twelve times
// its text and is needed only while the fixture is read. A LintCache is
// safe for concurrent use; the zero value is ready, and a nil *LintCache
// reads every document afresh.
type LintCache struct {
	seedOnce sync.Once
	seed     maphash.Seed // of the documents' hashes (docKey.sum)

	mu      sync.Mutex
	docs    map[docKey]*builtDoc
	kept    int               // text bytes of the kept documents
	regexps map[string]string // expect_view_matches pattern -> its compile error ("": none)
}

// maxKeptRegexps bounds the patterns whose compile result a LintCache keeps.
const maxKeptRegexps = 4096

// regexError is regexp.Compile(pattern)'s error text ("" when it
// compiles), each pattern compiled once per cache (nil: every time).
func (c *LintCache) regexError(pattern string) string {
	if c != nil {
		c.mu.Lock()
		msg, ok := c.regexps[pattern]
		c.mu.Unlock()
		if ok {
			return msg
		}
	}
	msg := ""
	if _, err := regexp.Compile(pattern); err != nil {
		msg = err.Error()
	}
	if c != nil {
		c.mu.Lock()
		if c.regexps == nil {
			c.regexps = map[string]string{}
		}
		if len(c.regexps) < maxKeptRegexps {
			c.regexps[pattern] = msg
		}
		c.mu.Unlock()
	}
	return msg
}

// maxKeptDocs bounds the text of the documents whose reading a LintCache
// keeps; documents past it are read afresh, so a huge run keeps its peak
// heap.
const maxKeptDocs = 4 << 20

// docKey is a document's text (its hash: a document found under it is
// compared with the text, builtDoc.src) and where it starts in its file
// (line and column offset: the positions of what it reads as).
type docKey struct {
	sum          uint64
	line, colOff int
}

// builtDoc is what one document reads as (readDoc) with its positions
// file-less (File ""): the fixture, nil for a document that is not a
// flow, and the parse findings. It is shared, read only, by every file
// holding the same text at the same place; rebase names the file.
type builtDoc struct {
	src  []byte // the document's text
	once sync.Once
	fx   *Fixture
	ds   []diag.Diagnostic
}

// read is readDoc through c: a document read before at the same place
// (the same text, line and column offset) is not read again; its fixture
// and findings are rebased onto file.
func (c *LintCache) read(file string, pc piece) (*Fixture, []diag.Diagnostic) {
	c.seedOnce.Do(func() { c.seed = maphash.MakeSeed() })
	key := docKey{sum: maphash.Bytes(c.seed, pc.src), line: pc.line, colOff: pc.colOff}
	c.mu.Lock()
	b := c.docs[key]
	if b != nil && !bytes.Equal(b.src, pc.src) {
		c.mu.Unlock()
		return readDoc(file, pc) // another text with the same hash
	}
	if b == nil {
		if c.kept+len(pc.src) > maxKeptDocs {
			c.mu.Unlock()
			return readDoc(file, pc)
		}
		c.kept += len(pc.src)
		if c.docs == nil {
			c.docs = map[docKey]*builtDoc{}
		}
		b = &builtDoc{src: pc.src} // the file's bytes, never written to: no copy
		c.docs[key] = b
	}
	c.mu.Unlock()
	b.once.Do(func() { b.fx, b.ds = readDoc("", pc) })
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
