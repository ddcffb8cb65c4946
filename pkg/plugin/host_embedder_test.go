package plugin

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/host"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// standInEmbeddings is a stand-in for llama-server --embeddings (the real
// server cannot run here): POST /v1/embeddings answers a deterministic
// bag-of-words vector per input, in reverse index order to check that the
// client sorts them. It counts inputs and records the prefixes it saw.
func standInEmbeddings(t *testing.T, inputs *atomic.Int64, prefixes *[]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.Error(w, "not found", 404)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		inputs.Add(int64(len(req.Input)))
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i, text := range slices.Backward(req.Input) {

			if p, _, ok := strings.Cut(text, ": "); ok && strings.HasPrefix(p, "search_") {
				*prefixes = append(*prefixes, p)
				text = text[len(p)+2:]
			}
			data = append(data, item{Index: i, Embedding: bagVec(text)})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data, "model": req.Model})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func bagVec(text string) []float32 {
	v := make([]float32, 32)
	for w := range strings.FieldsSeq(strings.ToLower(text)) {
		w = strings.Trim(w, ".,!?")
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%32]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	for i := range v {
		if n > 0 {
			v[i] = float32(float64(v[i]) / math.Sqrt(n))
		}
	}
	return v
}

// TestAgentSearchThroughLocalEmbedder: host.agent.search from a story's
// routing.embedding (endpoint mode) through the real LocalEmbedder and a
// loopback stand-in embedding server; the second search hits the cache.
func TestAgentSearchThroughLocalEmbedder(t *testing.T) {
	var inputs atomic.Int64
	var prefixes []string
	srv := standInEmbeddings(t, &inputs, &prefixes)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "app.yaml"), "app: { id: s, version: 0.1.0 }\nroot: a\nrouting:\n  embedding:\n    endpoint: "+srv.URL+"\n    model: stand-in-embed\n    cache_dir: .vecs\nstates:\n  a: { terminal: true, view: A }\n")
	writeFile(t, filepath.Join(dir, "kb/one.md"), "The deploy runbook: restart the web tier.\n")
	writeFile(t, filepath.Join(dir, "kb/two.md"), "Holiday schedule for the office.\n")
	st, ds := lint.Load(dir, story.Options{})
	if st == nil {
		t.Fatalf("load: %v", ds)
	}
	opts, closeE, err := storyEmbedder(st, localllm.EmbedderConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeE()
	if opts.Embedder == nil || opts.CacheDir != filepath.Join(dir, ".vecs") {
		t.Fatalf("options %+v", opts)
	}
	reg := host.Builtins(host.Options{Search: opts})
	h, _, _, _ := reg.Lookup("host.agent.search")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := func() map[string]any {
		res, err := h.Call(ctx, &host.Call{Handler: "host.agent.search", Args: map[string]any{"query": "how do I restart the web tier", "corpus": "kb/*.md", "top_k": 1}, Env: host.Env{WorkDir: dir, StoryDir: dir}})
		if err != nil || res.Error != "" {
			t.Fatalf("search: %+v %v", res, err)
		}
		return res.Data
	}
	d := run()
	top, _ := d["top"].(map[string]any)
	if top["path"] != "kb/one.md" || d["model"] != "stand-in-embed" {
		t.Fatalf("search: %v", d)
	}
	if inputs.Load() != 3 { // two chunks in one request, one query
		t.Errorf("inputs %d", inputs.Load())
	}
	run()
	if inputs.Load() != 4 { // only the query again
		t.Errorf("cache missed: %d inputs", inputs.Load())
	}
	if _, err := os.Stat(filepath.Join(dir, ".vecs", "stand-in-embed")); err != nil {
		t.Errorf("cache dir: %v", err)
	}
	if len(prefixes) != 0 {
		t.Errorf("an unknown model got task prefixes: %v", prefixes)
	}
}

func TestStoryEmbedderAbsent(t *testing.T) {
	o, c, err := storyEmbedder(&story.Story{}, localllm.EmbedderConfig{})
	if err != nil || o.Embedder != nil || c() != nil {
		t.Errorf("%+v %v", o, err)
	}
	_, _, err = storyEmbedder(&story.Story{Routing: &story.Routing{Raw: map[string]any{"embedding": map[string]any{"endpoint": "ftp://x"}}}}, localllm.EmbedderConfig{})
	if err == nil || !strings.Contains(err.Error(), "routing.embedding: local embed: endpoint") {
		t.Errorf("bad endpoint: %v", err)
	}
}
