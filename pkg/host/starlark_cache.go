package host

import (
	"crypto/sha256"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Bounds of a ScriptCache: past them a script is compiled for its call
// alone, as without a cache.
const (
	maxCachedScripts = 1024     // programs and sidecars
	maxCachedSource  = 32 << 20 // source bytes of the entries kept
)

// ScriptCache keeps the compiled programs of host.starlark.run's scripts
// and load()ed modules, and their parsed sidecars, so that each is parsed
// (scripts also rewritten and resolved) once for all the calls that share
// the cache (kitsoki test: every fixture of one run). Each is kept by its
// file name (positions in messages name it) and the digest of its source,
// so an edited file is parsed anew. Programs and sidecars are only read
// after parsing and each call initialises its own globals, so concurrent
// calls share them safely. The zero value is ready to use; a ScriptCache
// must not be copied after first use.
type ScriptCache struct {
	mu    sync.Mutex
	progs map[scriptKey]*cachedParse
	kept  int // source bytes of the entries kept
}

type scriptKey struct {
	sidecar bool
	name    string
	sum     [sha256.Size]byte
}

// cachedParse is a script's program or a sidecar, or the error parsing it
// gave (the same at every call).
type cachedParse struct {
	once sync.Once
	val  any // *starlark.Program or *Sidecar
	err  error
}

// program returns the checked program of src (named filename), compiled
// by compile on first use. A nil cache compiles every time.
func (c *ScriptCache) program(filename string, src []byte, compile func() (*starlark.Program, error)) (*starlark.Program, error) {
	v, err := c.parse(scriptKey{name: filename}, src, func() (any, error) { return compile() })
	p, _ := v.(*starlark.Program)
	return p, err
}

// sidecar is parseSidecar through the cache.
func (c *ScriptCache) sidecar(path string, data []byte) (*Sidecar, error) {
	v, err := c.parse(scriptKey{sidecar: true, name: path}, data, func() (any, error) { return parseSidecar(path, data) })
	sc, _ := v.(*Sidecar)
	return sc, err
}

// parse returns what parse gives for src, kept under key (its digest
// added) when the bounds allow.
func (c *ScriptCache) parse(key scriptKey, src []byte, parse func() (any, error)) (any, error) {
	if c == nil {
		return parse()
	}
	key.sum = sha256.Sum256(src)
	c.mu.Lock()
	e, ok := c.progs[key]
	if !ok {
		if len(c.progs) >= maxCachedScripts || c.kept+len(src) > maxCachedSource {
			c.mu.Unlock()
			return parse()
		}
		if c.progs == nil {
			c.progs = map[scriptKey]*cachedParse{}
		}
		e = &cachedParse{}
		c.progs[key] = e
		c.kept += len(src)
	}
	c.mu.Unlock()
	e.once.Do(func() { e.val, e.err = parse() })
	return e.val, e.err
}

// checked is checkedProgram through the cache. Every program of
// host.starlark.run is compiled with the same options and predeclared
// names, so the file name and source identify it.
func (c *ScriptCache) checked(opts *syntax.FileOptions, filename string, src []byte, predeclared starlark.StringDict) (*starlark.Program, error) {
	return c.program(filename, src, func() (*starlark.Program, error) {
		return checkedProgram(opts, filename, src, predeclared)
	})
}
