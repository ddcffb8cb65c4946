package localllm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kitsoki/internal/testing/llamastandin/standintest"
	"kitsoki/internal/testing/proctest"
)

func TestEmbedPrefixes(t *testing.T) {
	cases := []struct {
		model string
		role  EmbedRole
		want  string
	}{
		{EmbedModelNomic, EmbedDocument, "search_document: "},
		{EmbedModelNomic, EmbedQuery, "search_query: "},
		{EmbedModelBGE, EmbedDocument, ""},
		{EmbedModelBGE, EmbedQuery, "search_query: "},
		{"some-other-model", EmbedQuery, ""},
	}
	for _, c := range cases {
		if got := embedPrefix(c.model, c.role); got != c.want {
			t.Errorf("EmbedPrefix(%s, %d) = %q, want %q", c.model, c.role, got, c.want)
		}
	}
}

// embedEndpoint is a loopback STAND-IN for llama-server --embeddings: it
// records inputs and answers raw (not normalised) vectors of dim, listed
// in reverse index order (the OpenAI spec does not promise order).
type embedEndpoint struct {
	*httptest.Server
	mu     sync.Mutex
	inputs [][]string
	model  []string
	status int
	count  int // answer this many vectors instead of one per input (if > 0)
}

func newEmbedEndpoint(t *testing.T, dim int) *embedEndpoint {
	e := &embedEndpoint{status: 200}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &req)
		e.mu.Lock()
		e.inputs = append(e.inputs, req.Input)
		e.model = append(e.model, req.Model)
		status, count := e.status, e.count
		e.mu.Unlock()
		if status != 200 {
			w.WriteHeader(status)
			io.WriteString(w, `{"error":"no"}`)
			return
		}
		n := len(req.Input)
		if count > 0 {
			n = count
		}
		var data []any
		for i := n - 1; i >= 0; i-- {
			data = append(data, map[string]any{"index": i, "embedding": rawVector(i, dim)})
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data, "model": req.Model})
	}))
	t.Cleanup(e.Close)
	return e
}

// rawVector is a deterministic vector with a non-zero mean and norm != 1.
func rawVector(seed, dim int) []float64 {
	v := make([]float64, dim)
	for j := range v {
		v[j] = 0.3 + math.Sin(float64(seed*131+j*7))*2
	}
	return v
}

func norm32(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// nomicRecipe is nomic's published Matryoshka recipe, computed naively:
// layer_norm (with the standard deviation), slice, L2-normalise.
func nomicRecipe(v []float64, dim int) []float64 {
	var mean, variance float64
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		variance += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(variance/float64(len(v)) + 1e-5)
	out := make([]float64, dim)
	var n float64
	for i := range out {
		out[i] = (v[i] - mean) / sd
		n += out[i] * out[i]
	}
	for i := range out {
		out[i] /= math.Sqrt(n)
	}
	return out
}

func TestEmbedderNomicMatryoshka(t *testing.T) {
	ep := newEmbedEndpoint(t, 768)
	e, err := NewEmbedder(EmbedderConfig{Endpoint: ep.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Model() != EmbedModelNomic || e.Dim() != 256 {
		t.Fatalf("defaults: %s %d", e.Model(), e.Dim())
	}
	vecs, err := e.Embed(context.Background(), []string{"alpha", "beta", "gamma"}, EmbedDocument)
	if err != nil {
		t.Fatal(err)
	}
	if got := ep.inputs[0]; strings.Join(got, "|") != "search_document: alpha|search_document: beta|search_document: gamma" || ep.model[0] != EmbedModelNomic {
		t.Fatalf("sent %q (model %s)", got, ep.model[0])
	}
	for i, v := range vecs {
		if len(v) != 256 {
			t.Fatalf("vector %d has %d dims", i, len(v))
		}
		if n := norm32(v); math.Abs(n-1) > 1e-5 {
			t.Fatalf("vector %d not re-normalised: norm %v", i, n)
		}
		want := nomicRecipe(rawVector(i, 768), 256) // index order, not answer order
		for j := range want {
			if math.Abs(float64(v[j])-want[j]) > 1e-5 {
				t.Fatalf("vector %d component %d = %v, want %v", i, j, v[j], want[j])
			}
		}
	}
	if _, err := e.Embed(context.Background(), []string{"q"}, EmbedQuery); err != nil || ep.inputs[1][0] != "search_query: q" {
		t.Fatalf("query: %v %q", err, ep.inputs[1])
	}
}

func TestEmbedderBGEAndFullVectors(t *testing.T) {
	ep := newEmbedEndpoint(t, 384)
	e, _ := NewEmbedder(EmbedderConfig{Endpoint: ep.URL + "/", Model: EmbedModelBGE})
	vecs, err := e.Embed(context.Background(), []string{"doc"}, EmbedDocument)
	if err != nil || len(vecs[0]) != 384 || ep.inputs[0][0] != "doc" {
		t.Fatalf("bge document: %v %d %q", err, len(vecs[0]), ep.inputs[0])
	}
	if math.Abs(norm32(vecs[0])-1) > 1e-5 {
		t.Fatalf("bge vector norm %v", norm32(vecs[0]))
	}
	if _, err := e.Embed(context.Background(), []string{"ask"}, EmbedQuery); err != nil || ep.inputs[1][0] != "search_query: ask" {
		t.Fatalf("bge query: %v %q", err, ep.inputs[1])
	}
	full, _ := NewEmbedder(EmbedderConfig{Endpoint: ep.URL, Dim: -1})
	vecs, err = full.Embed(context.Background(), []string{"x"}, EmbedQuery)
	if err != nil || len(vecs[0]) != 384 || float64(vecs[0][0]) != float64(float32(rawVector(0, 384)[0])) {
		t.Fatalf("Dim -1 must keep the server's vector untouched: %v %v", err, vecs[0][:2])
	}
	big, _ := NewEmbedder(EmbedderConfig{Endpoint: ep.URL, Dim: 512})
	if _, err := big.Embed(context.Background(), []string{"x"}, EmbedQuery); err == nil || !strings.Contains(err.Error(), "fewer than the 512") {
		t.Fatalf("Dim above the server's size: %v", err)
	}
}

func TestEmbedderErrors(t *testing.T) {
	ep := newEmbedEndpoint(t, 768)
	e, _ := NewEmbedder(EmbedderConfig{Endpoint: ep.URL})
	ep.mu.Lock()
	ep.count = 1
	ep.mu.Unlock()
	if _, err := e.Embed(context.Background(), []string{"a", "b"}, EmbedDocument); err == nil || !strings.Contains(err.Error(), "expected 2 embeddings, got 1") {
		t.Fatalf("count mismatch: %v", err)
	}
	ep.mu.Lock()
	ep.count, ep.status = 0, 500
	ep.mu.Unlock()
	if _, err := e.Embed(context.Background(), []string{"a"}, EmbedDocument); err == nil || !strings.Contains(err.Error(), "http 500") {
		t.Fatalf("500: %v", err)
	}
	// an answer past the bound is refused by name, not cut and misread; the
	// bound is lowered to 1 MiB (TestEmbedBodyCapIsTheDocumented holds the
	// product's 32 MiB)
	const max = 1 << 20
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"data": [`)
		w.Write(bytes.Repeat([]byte(" "), max))
		io.WriteString(w, `{"index": 0, "embedding": [1, 2]}]}`)
	}))
	defer big.Close()
	eb, _ := NewEmbedder(EmbedderConfig{Endpoint: big.URL})
	eb.maxBody = max
	if _, err := eb.Embed(context.Background(), []string{"a"}, EmbedDocument); err == nil || !strings.Contains(err.Error(), "larger than 1 MiB") {
		t.Fatalf("an answer past the bound: %v", err)
	}
	if _, err := NewEmbedder(EmbedderConfig{Endpoint: "127.0.0.1:8081"}); err == nil {
		t.Fatal("an endpoint without a scheme was accepted")
	}
	if v, err := e.Embed(context.Background(), nil, EmbedQuery); v != nil || err != nil {
		t.Fatalf("empty batch: %v %v", v, err)
	}
}

// TestEmbedBodyCapIsTheDocumented: an embedder reads an answer of at most
// maxEmbedBody, the 32 MiB docs/compat/fetch-sidecar.md states.
func TestEmbedBodyCapIsTheDocumented(t *testing.T) {
	if maxEmbedBody != 32<<20 {
		t.Fatalf("maxEmbedBody is %d bytes; docs/compat/fetch-sidecar.md says 32 MiB", maxEmbedBody)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "compat", "fetch-sidecar.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "`POST <base>/v1/embeddings`, `{\"model\", \"input\": [...]}`, 32 MiB cap") {
		t.Fatal("docs/compat/fetch-sidecar.md no longer states the 32 MiB cap of an embeddings answer")
	}
	e, err := NewEmbedder(EmbedderConfig{Endpoint: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if e.maxBody != maxEmbedBody {
		t.Errorf("NewEmbedder reads answers of up to %d bytes, want maxEmbedBody", e.maxBody)
	}
}

func TestTruncate(t *testing.T) {
	v := []float32{3, 4, 12}
	got := truncateVector(v, 2, false)
	if len(got) != 2 || math.Abs(float64(got[0])-0.6) > 1e-6 || math.Abs(float64(got[1])-0.8) > 1e-6 {
		t.Fatalf("Truncate %v", got)
	}
	if v[0] != 3 || v[2] != 12 {
		t.Fatal("Truncate modified its input")
	}
	if z := truncateVector([]float32{0, 0, 0}, 2, true); z[0] != 0 || z[1] != 0 {
		t.Fatalf("zero vector %v", z)
	}
	if all := truncateVector(v, 0, false); len(all) != 3 || math.Abs(norm32(all)-1) > 1e-6 {
		t.Fatalf("dim 0 keeps every component, normalised: %v", all)
	}
	// Layer-norm is scale invariant: an L2-normalised input gives the
	// same result as the raw one.
	raw := rawVector(3, 64)
	r32, n32 := make([]float32, 64), make([]float32, 64)
	var n float64
	for _, x := range raw {
		n += x * x
	}
	for i, x := range raw {
		r32[i], n32[i] = float32(x), float32(x/math.Sqrt(n))
	}
	a, b := truncateVector(r32, 16, true), truncateVector(n32, 16, true)
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-5 {
			t.Fatalf("component %d: %v vs %v", i, a[i], b[i])
		}
	}
}

// The managed embedder spawns its own sidecar with --embeddings --pooling
// mean (the llama-server stand-in) and stops it on Close.
func TestEmbedderManaged(t *testing.T) {
	proctest.CheckNoChildren(t)
	a := NewManagedLLMArtifacts(t)
	_, record := managedEnv(t, a)
	t.Setenv(standintest.EnvEmbedDim, "768")
	var disclose strings.Builder
	e, err := NewEmbedder(EmbedderConfig{Model: EmbedModelNomic, Disclose: &syncWriter{b: &disclose}, tune: fastTune})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	vecs, err := e.Embed(ctxFor(t), []string{"one", "two"}, EmbedQuery)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 2 || len(vecs[0]) != 256 || math.Abs(norm32(vecs[1])-1) > 1e-5 {
		t.Fatalf("vectors %d x %d", len(vecs), len(vecs[0]))
	}
	starts := standinEvents(t, record, "start")
	if len(starts) != 1 || !strings.Contains(fmt.Sprint(starts[0]["argv"]), "--embeddings --pooling mean") {
		t.Fatalf("starts %v", starts)
	}
	var sent string
	for _, r := range standinEvents(t, record, "request") {
		if r["path"] == "/v1/embeddings" {
			b, _ := json.Marshal(r["body"])
			sent = string(b)
		}
	}
	if !strings.Contains(sent, `"search_query: one"`) {
		t.Fatalf("embeddings request %s", sent)
	}
	if !strings.Contains(disclose.String(), "downloading nomic-embed-text-v1.5 (") {
		t.Fatalf("no disclosure: %s", disclose.String())
	}
	pid := e.server.(*managedServer).pid()
	if err := e.Close(); err != nil || !processReaped(pid) {
		t.Fatalf("Close: %v (pid %d reaped: %v)", err, pid, processReaped(pid))
	}
}
