package flowtest

import (
	"crypto/sha256"
	"sync"

	"go.yaml.in/yaml/v3"
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
}

// unmarshal decodes one document's text (yaml.Unmarshal into a node).
func (c *LintCache) unmarshal(text string) (*yaml.Node, error) {
	if c == nil {
		return decodeDoc(text)
	}
	key := sha256.Sum256([]byte(text))
	c.mu.Lock()
	d := c.docs[key]
	if d == nil {
		if c.kept+len(text) > maxKeptDocs {
			c.mu.Unlock()
			return decodeDoc(text)
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
	return d.doc, d.err
}

func decodeDoc(text string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	return &doc, nil
}
