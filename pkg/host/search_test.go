package host

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// bagEmbedder is a deterministic in-process embedder for the search logic:
// words hashed into 64 buckets, L2-normalised. It counts embedded texts.
type bagEmbedder struct {
	mu     sync.Mutex
	docs   int
	fail   error
	model  string
	wrongN bool
}

func bagVector(text string) []float32 {
	v := make([]float32, 64)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%64]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	if n > 0 {
		for i := range v {
			v[i] = float32(float64(v[i]) / math.Sqrt(n))
		}
	}
	return v
}

func (b *bagEmbedder) Model() string {
	if b.model == "" {
		return "bag-64"
	}
	return b.model
}

func (b *bagEmbedder) Embed(_ context.Context, texts []string, query bool) ([][]float32, error) {
	if b.fail != nil {
		return nil, b.fail
	}
	b.mu.Lock()
	if !query {
		b.docs += len(texts)
	}
	b.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = bagVector(t)
	}
	if b.wrongN {
		out = out[:len(out)-1]
	}
	return out, nil
}

func searchCorpus(t *testing.T) string {
	wd := storytest.TempTree(t, map[string]string{
		"docs/cats.md":         "Cats purr and sleep in the sun.\nA cat chases mice.\n",
		"docs/deep/rockets.md": "Rockets burn fuel to reach orbit.\nThe launch pad is ready.\n",
		"docs/empty.md":        "\n\n",
		"notes.txt":            "cats cats cats\n",
		"docs/bin.md":          "\xff\xfe\x00",
	})
	return wd
}

func TestAgentSearch(t *testing.T) {
	wd := searchCorpus(t)
	emb := &bagEmbedder{}
	h := newAgentSearch(SearchOptions{Embedder: emb})
	env := Env{WorkDir: wd}
	d := mustOK(t, h, env, map[string]any{"query": "where do rockets launch to orbit", "corpus": "docs/**/*.md", "top_k": 1})
	top, _ := d["top"].(map[string]any)
	if top["path"] != "docs/deep/rockets.md" || d["count"] != 1 || d["chunks"] != 2 || d["model"] != "bag-64" {
		t.Fatalf("rockets: %v", d)
	}
	if top["start_line"] != 1 || top["end_line"] != 2 || !strings.Contains(top["text"].(string), "launch pad") {
		t.Errorf("hit: %v", top)
	}
	if sk, _ := d["skipped"].([]any); len(sk) != 1 || sk[0] != "docs/bin.md" {
		t.Errorf("skipped: %v", d["skipped"])
	}
	if emb.docs != 2 {
		t.Errorf("embedded %d document chunks, want 2 (the blank and binary files are skipped)", emb.docs)
	}
	// the second search reuses the cached vectors
	d = mustOK(t, h, env, map[string]any{"query": "cats purr", "corpus": []any{"docs/*.md", "notes.txt"}, "min_score": 0.3})
	if emb.docs != 3 {
		t.Errorf("cache: %d chunks embedded in total, want 3 (only notes.txt is new)", emb.docs)
	}
	hits, _ := d["hits"].([]any)
	if len(hits) != 2 || hits[0].(map[string]any)["path"] != "notes.txt" {
		t.Errorf("cats: %v", d["hits"])
	}
	for _, hit := range hits {
		if s := hit.(map[string]any)["score"].(float64); s < 0.3 {
			t.Errorf("score %v below min_score", s)
		}
	}
	ents, _ := os.ReadDir(filepath.Join(wd, ".kitsoki-embed-cache", "bag-64"))
	if len(ents) != 3 {
		t.Errorf("cache files: %d", len(ents))
	}
	// a changed file is embedded again; a different model has its own cache
	storytest.WriteFile(t, filepath.Join(wd, "notes.txt"), "dogs bark\n")
	mustOK(t, h, env, map[string]any{"query": "dogs", "corpus": "notes.txt"})
	if emb.docs != 4 {
		t.Errorf("changed file: %d", emb.docs)
	}
	other := &bagEmbedder{model: "other/model.v2"}
	mustOK(t, newAgentSearch(SearchOptions{Embedder: other}), env, map[string]any{"query": "dogs", "corpus": "notes.txt"})
	if other.docs != 1 {
		t.Errorf("other model reused a cache: %d", other.docs)
	}
	// nothing above min_score: no hits, top null
	d = mustOK(t, h, env, map[string]any{"query": "zebra", "corpus": "docs/**/*.md", "min_score": 0.99})
	if d["count"] != 0 || d["top"] != nil {
		t.Errorf("no hits: %v", d)
	}
}

func TestAgentSearchErrors(t *testing.T) {
	wd := searchCorpus(t)
	env := Env{WorkDir: wd}
	h := newAgentSearch(SearchOptions{Embedder: &bagEmbedder{}})
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"corpus": "docs/*.md"}, "host.agent.search: query argument is required"},
		{map[string]any{"query": "q"}, "corpus argument is required"},
		{map[string]any{"query": "q", "corpus": "../*"}, "reaches outside"},
		{map[string]any{"query": "q", "corpus": "/etc/*"}, "reaches outside"},
		{map[string]any{"query": "q", "corpus": "[", "top_k": 1}, "malformed"},
		{map[string]any{"query": "q", "corpus": "*", "top_k": -1}, "top_k must be a non-negative integer, got -1 (number)"},
		{map[string]any{"query": "q", "corpus": "*", "top_k": []any{1.0}}, "top_k must be a non-negative integer, got [1] (list)"},
		{map[string]any{"query": "q", "corpus": "*", "chunk_lines": map[string]any{"a": true}}, `chunk_lines must be a non-negative integer, got {"a":true} (object)`},
		{map[string]any{"query": "q", "corpus": "*", "min_score": false}, "min_score must be a number, got false (true/false)"},
		{map[string]any{"query": "q", "corpus": "*", "min_score": "high"}, "min_score must be a number"},
	} {
		res, err := call(t, h, env, c.args)
		if err != nil || !strings.Contains(res.Error, c.want) {
			t.Errorf("%v: %q (%v), want %q", c.args, res.Error, err, c.want)
		}
	}
	// no embedder: upstream's text, whatever the arguments
	for _, args := range []map[string]any{{"query": "q", "corpus": "*"}, {}, {"query": 3, "corpus": 4}} {
		res, _ := call(t, newAgentSearch(SearchOptions{}), env, args)
		if res.Error != "host.agent.search: no embedder configured; wire via NewAgentSearchHandler" {
			t.Errorf("no embedder, %v: %q", args, res.Error)
		}
	}
	_, err := call(t, newAgentSearch(SearchOptions{Embedder: &bagEmbedder{fail: errors.New("local embed: http 500")}}), env, map[string]any{"query": "q", "corpus": "docs/*.md"})
	if err == nil || !strings.Contains(err.Error(), "embedding the corpus: local embed: http 500") {
		t.Errorf("embedder failure: %v", err)
	}
	_, err = call(t, newAgentSearch(SearchOptions{Embedder: &bagEmbedder{wrongN: true}, CacheDir: t.TempDir()}), env, map[string]any{"query": "q", "corpus": "docs/*.md"})
	if err == nil || !strings.Contains(err.Error(), "vectors for") {
		t.Errorf("short answer: %v", err)
	}
}

func TestChunkText(t *testing.T) {
	text := strings.Repeat("line\n", 7)
	cs := chunkText("f", text, 3)
	if len(cs) != 3 || cs[0].start != 1 || cs[0].end != 3 || cs[2].start != 7 || cs[2].end != 7 {
		t.Errorf("chunks: %+v", cs)
	}
	long := strings.Repeat(strings.Repeat("x", 100)+"\n", 100)
	for _, c := range chunkText("f", long, 1000) {
		if len(c.text) > maxChunkBytes {
			t.Errorf("chunk of %d bytes", len(c.text))
		}
	}
}

func TestGlob(t *testing.T) {
	wd := searchCorpus(t)
	storytest.WriteFile(t, filepath.Join(wd, ".hidden/x.md"), "x")
	got, err := glob(wd, "**/*.md", 100)
	if err != nil || strings.Join(got, ",") != "docs/bin.md,docs/cats.md,docs/deep/rockets.md,docs/empty.md" {
		t.Errorf("glob: %v %v", got, err)
	}
	if _, err := glob(wd, "**/*.md", 2); err == nil || !strings.Contains(err.Error(), "more than 2 files") {
		t.Errorf("cap: %v", err)
	}
}
