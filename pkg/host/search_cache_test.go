package host

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// host.agent.search's vector cache against links a story planted, or a
// process beside it swapped in during the call: no vector is read from,
// and no cache file written through, a link leading out of the working
// directory (or out of a configured cache directory). The corpus is one
// file of one chunk, so the cache is looked at twice per call: check 1
// before its file is read, check 2 before it is written.

const cacheCorpusText = "cats purr in the sun\n"

// cacheCorpus is a working directory holding the one-chunk corpus, and
// the name of that file's cache file under the model's directory.
func cacheCorpus(t *testing.T) (wd, file string) {
	t.Helper()
	wd = t.TempDir()
	writeTree(t, wd, map[string]string{"notes.txt": cacheCorpusText})
	sum := sha256.Sum256([]byte(cacheCorpusText))
	key := cacheKey("bag-64", defaultChunkLines, hex.EncodeToString(sum[:]))
	return wd, filepath.Base(key) + ".json"
}

// poisonedOutside is a directory outside the working directory holding,
// where a link could lead the cache (as the cache directory or as its
// model directory), a cache file of the corpus with planted vectors.
func poisonedOutside(t *testing.T, file string) (string, map[string]string) {
	t.Helper()
	v := make([]float32, 64)
	v[0] = 1
	b, err := json.Marshal(vecFile{Model: "SECRET planted", Vectors: [][]float32{v}})
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{file: string(b), "bag-64/" + file: string(b)})
	return outside, snapshot(t, outside)
}

// wantCacheRefused fails unless the call succeeded with the corpus
// embedded anew (the planted vectors unread) and nothing outside changed.
func wantCacheRefused(t *testing.T, h Handler, emb *bagEmbedder, wd, outside string, before map[string]string) {
	t.Helper()
	res, err := call(t, h, Env{WorkDir: wd}, map[string]any{"query": "cats", "corpus": "notes.txt"})
	if err != nil || res.Error != "" {
		t.Fatalf("result %+v (infra error %v), want a search (a cache that cannot be used costs speed, not answers)", res, err)
	}
	if emb.docs != 1 {
		t.Errorf("embedded %d chunks, want 1: the vectors planted outside were read", emb.docs)
	}
	wantUntouched(t, outside, before, wd, res)
}

func TestAgentSearchCacheLinkPlanted(t *testing.T) {
	for _, c := range []struct {
		name       string
		link       string // relative to the working directory, or to the configured cache
		configured bool
		relative   bool // the link's target is relative (../<outside>)
	}{
		{"the cache directory links out", ".kitsoki-embed-cache", false, false},
		{"the cache directory links out, relative", ".kitsoki-embed-cache", false, true},
		{"the model directory links out", ".kitsoki-embed-cache/bag-64", false, false},
		{"configured: the model directory links out", "bag-64", true, false},
		{"configured: the model directory links out, relative", "bag-64", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			wd, file := cacheCorpus(t)
			outside, before := poisonedOutside(t, file)
			o := SearchOptions{Embedder: &bagEmbedder{}}
			base := wd
			if c.configured {
				o.CacheDir = t.TempDir()
				base = o.CacheDir
			}
			link := filepath.Join(base, filepath.FromSlash(c.link))
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			target := outside
			if c.relative {
				rel, err := filepath.Rel(filepath.Dir(link), outside)
				if err != nil {
					t.Fatal(err)
				}
				target = rel
			}
			linkOut(t, link, target)
			wantCacheRefused(t, newAgentSearch(o), o.Embedder.(*bagEmbedder), wd, outside, before)
		})
	}
}

func TestAgentSearchCacheLinkSwappedIn(t *testing.T) {
	for _, c := range []struct {
		name       string
		swap       string // relative to the working directory, or to the configured cache
		configured bool
		n          int
	}{
		{"the cache directory swapped before the read", ".kitsoki-embed-cache", false, 1},
		{"the cache directory swapped before the write", ".kitsoki-embed-cache", false, 2},
		{"the model directory swapped before the read", ".kitsoki-embed-cache/bag-64", false, 1},
		{"the model directory swapped before the write", ".kitsoki-embed-cache/bag-64", false, 2},
		{"configured: the model directory swapped before the read", "bag-64", true, 1},
		{"configured: the model directory swapped before the write", "bag-64", true, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			wd, file := cacheCorpus(t)
			outside, before := poisonedOutside(t, file)
			emb := &bagEmbedder{}
			o := SearchOptions{Embedder: emb}
			base := wd
			if c.configured {
				o.CacheDir = t.TempDir()
				base = o.CacheDir
			}
			// the directories exist (an earlier search made them), empty
			if err := os.MkdirAll(filepath.Join(base, filepath.FromSlash(c.swap), "bag-64"), 0o755); err != nil {
				t.Fatal(err)
			}
			// outside/bag-64/<file> is then the cache directory's file,
			// outside/<file> the model directory's
			h := &agentSearch{o: o, checked: swapOnce(t, c.n, filepath.Join(base, filepath.FromSlash(c.swap)), outside)}
			wantCacheRefused(t, h, emb, wd, outside, before)
		})
	}
}

// A link that stays inside is followed: the default cache directory may
// be a relative link to another directory of the working directory, and
// a configured cache directory is taken as named, a link itself.
func TestAgentSearchCacheLinkInside(t *testing.T) {
	for _, configured := range []bool{false, true} {
		wd, file := cacheCorpus(t)
		real := filepath.Join(wd, "cache-real")
		o := SearchOptions{Embedder: &bagEmbedder{}}
		if configured {
			real = t.TempDir()
			o.CacheDir = filepath.Join(t.TempDir(), "cache-link")
			mustSymlink(t, real, o.CacheDir)
		} else {
			if err := os.Mkdir(real, 0o755); err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, "cache-real", filepath.Join(wd, ".kitsoki-embed-cache"))
		}
		h := newAgentSearch(o)
		emb := o.Embedder.(*bagEmbedder)
		for range 2 {
			mustOK(t, h, Env{WorkDir: wd}, map[string]any{"query": "cats", "corpus": "notes.txt"})
		}
		if emb.docs != 1 {
			t.Errorf("configured %v: embedded %d chunks in two searches, want 1 (the second from the cache)", configured, emb.docs)
		}
		if _, err := os.Stat(filepath.Join(real, "bag-64", file)); err != nil {
			t.Errorf("configured %v: the cache file is not in the link's directory: %v", configured, err)
		}
	}
}

// A configured cache directory that does not exist yet is made by the
// first write, as the write by path made it, and a search with nothing
// to write makes nothing.
func TestAgentSearchCacheConfiguredMade(t *testing.T) {
	wd, file := cacheCorpus(t)
	dir := filepath.Join(t.TempDir(), "a", "cache")
	emb := &bagEmbedder{}
	h := newAgentSearch(SearchOptions{Embedder: emb, CacheDir: dir})
	mustOK(t, h, Env{WorkDir: wd}, map[string]any{"query": "cats", "corpus": "none/*.txt"})
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("a search with nothing to cache made %s (%v)", dir, err)
	}
	for range 2 {
		mustOK(t, h, Env{WorkDir: wd}, map[string]any{"query": "cats", "corpus": "notes.txt"})
	}
	if _, err := os.Stat(filepath.Join(dir, "bag-64", file)); err != nil || emb.docs != 1 {
		t.Errorf("the cache file: %v; embedded %d chunks, want 1", err, emb.docs)
	}
	if _, err := os.Stat(filepath.Join(wd, ".kitsoki-embed-cache")); !os.IsNotExist(err) {
		t.Errorf("the default cache directory was made beside a configured one: %v", err)
	}
}
