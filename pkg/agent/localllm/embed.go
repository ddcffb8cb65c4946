package localllm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"reflect"
	"sort"
	"strings"

	"kitsoki/internal/childproc"
	"kitsoki/internal/human"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
)

// EmbedRole says what a text is for: asymmetric embedding models prefix
// documents and queries differently.
type EmbedRole int

// Embedding roles.
const (
	EmbedDocument EmbedRole = iota
	EmbedQuery
)

// Embedding model ids with known task prefixes and dimensions, for
// EmbedderConfig.Model; another id gets no prefix and the server's
// own dimension.
const (
	// EmbedModelNomic is the default: "search_document: " and
	// "search_query: " prefixes, 256 dimensions (matryoshka-truncated).
	EmbedModelNomic = "nomic-embed-text-v1.5"
	// EmbedModelBGE prefixes queries only ("search_query: "), 384
	// dimensions.
	EmbedModelBGE = "bge-small-en-v1.5"
)

// embedModel is what kitsoki knows about an embedding model.
type embedModel struct {
	doc, query string // task prefixes, trailing space included
	dim        int    // default output size (0 = whatever the server returns)
	matryoshka bool   // truncation needs nomic's layer-norm + re-normalisation
}

var embedModels = map[string]embedModel{
	EmbedModelNomic: {doc: "search_document: ", query: "search_query: ", dim: 256, matryoshka: true},
	EmbedModelBGE:   {query: "search_query: ", dim: 384},
}

// embedPrefix returns the task prefix model puts before a text of role
// (nomic: "search_document: " / "search_query: "; bge: "search_query: "
// for queries only; unknown models: none).
func embedPrefix(model string, role EmbedRole) string {
	m := embedModels[model]
	if role == EmbedQuery {
		return m.query
	}
	return m.doc
}

// EmbedderConfig configures NewEmbedder. Like builtin.local_llm,
// Endpoint attaches to a running llama-server started with --embeddings
// (never fetched, spawned or stopped); Model alone is managed mode: the
// first Embed fetches the pinned server and weights and spawns a separate
// embedding sidecar (--embeddings --pooling mean), stopped by Close.
type EmbedderConfig struct {
	// Model is the embedding model id (default nomic-embed-text-v1.5). It
	// picks the task prefixes and, in managed mode, the pinned weights.
	Model    string
	Endpoint string
	// Dim truncates vectors (Matryoshka for nomic: layer-norm, keep the
	// first Dim components, L2-normalise). 0 takes the model's default
	// (256 for nomic); a negative value keeps the server's full vectors.
	Dim int
	// APIKeyEnv names a variable holding a bearer token, read per call.
	APIKeyEnv string
	// ServerBin and Port are as in builtin.local_llm (managed mode).
	ServerBin string
	Port      int
	// Logger receives sidecar and download lines; nil discards.
	Logger *slog.Logger
	// Disclose receives the download disclosure; nil means os.Stderr.
	Disclose io.Writer
	// HTTPClient overrides the client (tests).
	HTTPClient *http.Client

	tune serverTuning
}

// Embedder embeds texts through llama-server's POST /v1/embeddings.
// It is safe for concurrent use.
type Embedder struct {
	model  string
	info   embedModel
	dim    int
	apiKey string
	server llmServer
	client *http.Client
	// maxBody bounds an answer: maxEmbedBody, lowered by tests to reach it
	// at a small size.
	maxBody int64
	// costFloor is jsoncost.Floor for an answer's cost check (0: that
	// floor); tests lower it.
	costFloor int64
}

// NewEmbedder builds an embedder; nothing is fetched or spawned
// before the first Embed.
func NewEmbedder(cfg EmbedderConfig) (*Embedder, error) {
	model := cmp.Or(strings.TrimSpace(cfg.Model), EmbedModelNomic)
	e := &Embedder{model: model, info: embedModels[model], apiKey: strings.TrimSpace(cfg.APIKeyEnv), client: cfg.HTTPClient, maxBody: maxEmbedBody}
	switch {
	case cfg.Dim > 0:
		e.dim = cfg.Dim
	case cfg.Dim == 0:
		e.dim = e.info.dim
	}
	log := cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))
	if ep := strings.TrimSpace(cfg.Endpoint); ep != "" {
		if !isHTTPURL(ep) {
			return nil, fmt.Errorf("local embed: endpoint %q is not an http:// or https:// URL (e.g. http://127.0.0.1:8081)", ep)
		}
		e.server = endpointServer{url: strings.TrimRight(ep, "/")}
	} else {
		disclose := cmp.Or(cfg.Disclose, io.Writer(os.Stderr))
		e.server = newManagedServer("local embed "+model, model, cfg.ServerBin, "", cfg.Port, true, cfg.tune, log, disclose)
	}
	e.client = cmp.Or(e.client, httpClient(e.server, nil))
	return e, nil
}

// Model is the embedding model id.
func (e *Embedder) Model() string { return e.model }

// Dim is the length of the vectors Embed returns (0: the server's size).
func (e *Embedder) Dim() int { return e.dim }

// Close stops a managed sidecar; in endpoint mode it does nothing.
func (e *Embedder) Close() error { return e.server.close() }

// Embed returns one vector per text, in input order, each prefixed with
// the model's task prefix for role before it is sent. Vectors of a model
// with a default or configured Dim are truncated to it and re-normalised.
func (e *Embedder) Embed(ctx context.Context, texts []string, role EmbedRole) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	key, ok := apiKey(e.apiKey)
	if !ok {
		return nil, fmt.Errorf("local embed: api key variable %s is not set; export it, or drop APIKeyEnv", e.apiKey)
	}
	base, err := e.server.baseURL(ctx)
	if err != nil {
		return nil, fmt.Errorf("local embed: %w", err)
	}
	prefix := embedPrefix(e.model, role)
	input := make([]string, len(texts))
	for i, t := range texts {
		input[i] = prefix + t
	}
	body, err := json.Marshal(map[string]any{"model": e.model, "input": input})
	if err != nil {
		return nil, fmt.Errorf("local embed: encode request: %w", err)
	}
	endpoint := apiURL(base, "embeddings")
	resp, err := callAPI(ctx, e.client, http.MethodPost, endpoint, body, nil, key)
	if err != nil {
		return nil, fmt.Errorf("local embed: POST %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	raw, err := safefile.ReadAtMost(resp.Body, e.maxBody)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("local embed: the answer from %s is larger than %s; embed fewer texts per call", endpoint, human.Size(e.maxBody))
	}
	if err != nil {
		return nil, fmt.Errorf("local embed: reading the answer from %s: %w", endpoint, err)
	}
	if resp.StatusCode >= 400 {
		// masked before it is cut: no half key
		msg := childproc.Snippet(func(s string) string { return maskKey(key, s) }, strings.TrimSpace(string(raw)))
		return nil, fmt.Errorf("local embed: http %d from %s: %s", resp.StatusCode, endpoint, msg)
	}
	vecs, err := parseEmbeddings(raw, len(texts), e.costFloor)
	if err != nil {
		return nil, fmt.Errorf("local embed: %s: %w", endpoint, err)
	}
	if e.dim > 0 {
		for i, v := range vecs {
			if len(v) < e.dim {
				return nil, fmt.Errorf("local embed: %s returned %d-dimensional vectors, fewer than the %d asked for; set Dim to at most %d", e.model, len(v), e.dim, len(v))
			}
			vecs[i] = truncateVector(v, e.dim, e.info.matryoshka)
		}
	}
	return vecs, nil
}

// parseEmbeddings decodes an OpenAI embeddings answer and orders the
// vectors by index (the spec does not promise order). It wants exactly n
// vectors with distinct indexes 0..n-1. One that would take over
// jsoncost's limit (floor 0: jsoncost.Floor) once decoded is refused
// undecoded.
func parseEmbeddings(raw []byte, n int, floor int64) ([][]float32, error) {
	var er embeddingsAnswer
	if err := costlyAnswer(raw, reflect.TypeFor[embeddingsAnswer](), floor, "embeddings"); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &er); err != nil {
		return nil, fmt.Errorf("unparseable embeddings answer (%s; raw: %s)", jsonvalue.Reason(raw, err), childproc.Snippet(nil, string(raw)))
	}
	if len(er.Data) != n {
		return nil, fmt.Errorf("expected %d embeddings, got %d", n, len(er.Data))
	}
	sort.SliceStable(er.Data, func(i, j int) bool { return er.Data[i].Index < er.Data[j].Index })
	out := make([][]float32, n)
	for i, d := range er.Data {
		if d.Index != i {
			return nil, fmt.Errorf("embedding indexes are not 0..%d (got %d at position %d)", n-1, d.Index, i)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embedding %d is empty", i)
		}
		out[i] = d.Embedding
	}
	return out, nil
}

// embeddingsAnswer is the part of an OpenAI embeddings answer kitsoki reads.
type embeddingsAnswer struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// truncateVector returns the first dim components of v, L2-normalised. With
// layerNorm (nomic's Matryoshka recipe: layer_norm, slice, normalise) the
// mean of all of v's components is subtracted first; layer_norm's division
// by the standard deviation is one scale factor for the whole vector, which
// the final normalisation cancels, so it is skipped. v is not modified. A
// zero vector stays zero.
func truncateVector(v []float32, dim int, layerNorm bool) []float32 {
	if dim <= 0 || dim > len(v) {
		dim = len(v)
	}
	var mean float64
	if layerNorm && len(v) > 0 {
		for _, x := range v {
			mean += float64(x)
		}
		mean /= float64(len(v))
	}
	src := make([]float64, dim)
	var norm float64
	for i := range src {
		src[i] = float64(v[i]) - mean
		norm += src[i] * src[i]
	}
	norm = math.Sqrt(norm)
	out := make([]float32, dim)
	if norm == 0 {
		return out
	}
	for i, x := range src {
		out[i] = float32(x / norm)
	}
	return out
}
