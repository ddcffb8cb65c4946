package coverage

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"
	"sync"

	"kitsoki/internal/human"
	"kitsoki/pkg/engine"
)

// Collector counts what sessions reach: Add every story's machine, hand
// the collector to each session as its engine.Observer, then take the
// Profile. It is safe for concurrent use.
type Collector struct {
	base string

	mu    sync.Mutex
	files map[string]map[itemKey]*Item // by the engine's file name
}

// Options tune a Collector.
type Options struct {
	Base string // profile paths are relative to it when below it
}

// NewCollector returns an empty collector.
func NewCollector(o Options) *Collector {
	base := o.Base
	if base != "" {
		if abs, err := filepath.Abs(base); err == nil {
			base = abs
		}
	}
	return &Collector{base: base, files: map[string]map[itemKey]*Item{}}
}

// Add registers every reachable part of m, unreached; each part is listed
// once, however many machines share it.
func (c *Collector) Add(m *engine.Machine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range m.Reachables() {
		add(itemsOf(c.files, r.Pos.File), Item{Kind: r.Kind, Line: r.Pos.Line, Col: r.Pos.Col, State: clipName(r.State), Label: clipName(r.Label)})
	}
}

// Reached counts one reach of a registered part (engine.Observer).
func (c *Collector) Reached(k engine.ReachKind, at engine.Pos) {
	c.mu.Lock()
	if it := c.files[at.File][itemKey{k, at.Line, at.Col}]; it != nil {
		it.Count++
	}
	c.mu.Unlock()
}

// Profile is what was counted so far, with the paths made relative to
// the base.
func (c *Collector) Profile() *Profile {
	c.mu.Lock()
	defer c.mu.Unlock()
	files := map[string]map[itemKey]*Item{}
	for raw, m := range c.files {
		out := itemsOf(files, c.path(raw))
		for _, it := range m {
			add(out, *it)
		}
	}
	return build(files)
}

// path is a story file's name in the profile.
func (c *Collector) path(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	if c.base != "" {
		if rel, err := filepath.Rel(c.base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}

// maxName bounds the state name and the label an item keeps: every item
// names its state, so a long name on a state with many arms made the JSON
// profile and -v's list grow with the name times the arms. A longer one
// keeps its first maxName bytes, then "…#" and a hash of the whole, so two
// names stay two.
const maxName = 256

// clipName is s within maxName (and the hash's few bytes).
func clipName(s string) string {
	if len(s) <= maxName {
		return s
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(s))
	return fmt.Sprintf("%s…#%08x", s[:human.RuneCut(s, maxName)], h.Sum32())
}
