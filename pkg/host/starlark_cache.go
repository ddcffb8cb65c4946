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
	maxCachedScripts = 1024
	maxCachedSource  = 32 << 20 // source bytes of the kept programs
)

// ScriptCache keeps the compiled programs of host.starlark.run's scripts
// and load()ed modules, so that each is parsed, rewritten and resolved
// once for all the calls that share the cache (kitsoki test: every
// fixture of one run). A program is kept by its file name (positions in
// messages name it) and the digest of its source, so an edited file is
// compiled anew. Programs are immutable and each call initialises its own
// globals, so concurrent calls share them safely. The zero value is
// ready to use; a ScriptCache must not be copied after first use.
type ScriptCache struct {
	mu    sync.Mutex
	progs map[scriptKey]*compiledScript
	kept  int // source bytes of the programs kept
}

type scriptKey struct {
	name string
	sum  [sha256.Size]byte
}

// compiledScript is a script's program, or the error compiling it gave
// (a syntax or resolve error is the same at every call).
type compiledScript struct {
	once sync.Once
	prog *starlark.Program
	err  error
}

// program returns the checked program of src (named filename), compiled
// by compile on first use. A nil cache compiles every time.
func (c *ScriptCache) program(filename string, src []byte, compile func() (*starlark.Program, error)) (*starlark.Program, error) {
	if c == nil {
		return compile()
	}
	key := scriptKey{name: filename, sum: sha256.Sum256(src)}
	c.mu.Lock()
	e, ok := c.progs[key]
	if !ok {
		if len(c.progs) >= maxCachedScripts || c.kept+len(src) > maxCachedSource {
			c.mu.Unlock()
			return compile()
		}
		if c.progs == nil {
			c.progs = map[scriptKey]*compiledScript{}
		}
		e = &compiledScript{}
		c.progs[key] = e
		c.kept += len(src)
	}
	c.mu.Unlock()
	e.once.Do(func() { e.prog, e.err = compile() })
	return e.prog, e.err
}

// checked is checkedProgram through the cache. Every program of
// host.starlark.run is compiled with the same options and predeclared
// names, so the file name and source identify it.
func (c *ScriptCache) checked(opts *syntax.FileOptions, filename string, src []byte, predeclared starlark.StringDict) (*starlark.Program, error) {
	return c.program(filename, src, func() (*starlark.Program, error) {
		return checkedProgram(opts, filename, src, predeclared)
	})
}
