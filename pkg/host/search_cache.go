package host

import (
	"encoding/json"
	"path/filepath"
)

// embedCache is host.agent.search's vector cache for one call, read and
// written through an os.Root as the file built-ins' files are
// (fileroot.go). With no cache directory configured it is
// <workdir>/.kitsoki-embed-cache, inside the working directory's root
// (the corpus's): a story that plants that directory, or a directory
// inside it, as a symbolic link leading out (or a directory swapped for
// one during the call) gets no vector read from or written through it.
// A configured directory (SearchOptions.CacheDir, routing.embedding's
// cache_dir) is taken as named, links on its own path followed, and is
// the root of the files inside it: a link in it leading out of it is not
// followed either. A cache file that cannot be read is a miss and one
// that cannot be written is skipped, as before: the cache costs speed,
// never answers.
type embedCache struct {
	fr  *fileRoot
	dir string // absolute or as configured: where the cache files are, inside fr
	own bool   // fr is the cache's own (a configured directory): Close closes it
}

// openEmbedCache is the cache under configured, or under the working
// directory's .kitsoki-embed-cache when configured is "" (wd is the
// working directory's root, open for the corpus).
func openEmbedCache(wd *fileRoot, configured string, checked func(string)) *embedCache {
	if configured == "" {
		return &embedCache{fr: wd, dir: filepath.Join(wd.dir, ".kitsoki-embed-cache")}
	}
	fr, err := readFileRoot(configured, checked)
	if err != nil {
		// not a directory, or not readable: every file a miss, as the
		// reads and writes by path failed before
		fr = &fileRoot{dir: filepath.Clean(configured), checked: checked}
	}
	return &embedCache{fr: fr, dir: fr.dir, own: true}
}

// Close closes the cache's own root.
func (c *embedCache) Close() error {
	if !c.own {
		return nil
	}
	return c.fr.Close()
}

type vecFile struct {
	Model   string      `json:"model"`
	Vectors [][]float32 `json:"vectors"`
}

// path is the cache file of key.
func (c *embedCache) path(key string) string {
	return filepath.Join(c.dir, key+".json")
}

// load is key's n cached vectors; false when there is no readable cache
// file of n vectors.
func (c *embedCache) load(key string, n int) ([][]float32, bool) {
	abs := c.path(key)
	if c.fr.checked != nil {
		c.fr.checked(abs)
	}
	b, err := c.fr.ReadFile(abs, 256<<20)
	if err != nil {
		return nil, false
	}
	var vf vecFile
	if json.Unmarshal(b, &vf) != nil || len(vf.Vectors) != n {
		return nil, false
	}
	return vf.Vectors, true
}

// store writes key's vectors (atomicfile.WriteIn through the root, which
// makes the directories on the way). A configured directory that does
// not exist yet is made first, as the write by path made it.
func (c *embedCache) store(key, model string, vecs [][]float32) error {
	b, err := json.Marshal(vecFile{Model: model, Vectors: vecs})
	if err != nil {
		return err
	}
	if c.fr.r == nil && c.own {
		fr, err := openFileRoot(c.dir, c.fr.checked)
		if err != nil {
			return err
		}
		c.fr = fr
	}
	return c.fr.WriteFile(c.path(key), b)
}
