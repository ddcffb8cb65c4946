package host

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"kitsoki/internal/lazyre"
)

// Embedder turns texts into vectors (pkg/agent/localllm's Embedder, adapted by
// the composition root: plugin.HostEmbedder).
type Embedder interface {
	// Model names the embedding model; it keys the vector cache.
	Model() string
	// Embed returns one vector per text, in order; query selects the
	// model's query prefix instead of its document prefix.
	Embed(ctx context.Context, texts []string, query bool) ([][]float32, error)
}

// SearchOptions configures host.agent.search.
type SearchOptions struct {
	Embedder Embedder
	// CacheDir holds the vector cache ("" = <workdir>/.kitsoki-embed-cache).
	CacheDir string
	// MaxFiles bounds how many files one corpus may select (0 = 2000).
	MaxFiles int
}

// Search defaults and limits.
const (
	defaultTopK       = 5
	defaultChunkLines = 40
	maxChunkBytes     = 4000
	maxCorpusFile     = 2 << 20
)

// newAgentSearch returns the host.agent.search handler:
//
//	with:
//	  query:       the text to look for (required)
//	  corpus:      a glob (or a list of globs) relative to the working directory, "**" for any depth (required)
//	  top_k:       hits to return (default 5)
//	  min_score:   drop hits scoring below it (cosine, default 0)
//	  chunk_lines: lines per chunk (default 40)
//
// Data: {ok, hits: [{path, chunk, start_line, end_line, score, text}],
// top: the best hit or null, count, chunks, model, skipped: files not
// searched (binary, over 2 MiB or unreadable)}. Document vectors are
// cached on disk per model, chunking and file content hash, so an
// unchanged file is never embedded twice.
func newAgentSearch(o SearchOptions) Handler { return &agentSearch{o: o} }

type agentSearch struct {
	o SearchOptions
	// checked, when set (tests), runs with each cache file's path before
	// it is read or written: the moments a process beside the story could
	// swap a directory on its way for a link.
	checked func(abs string)
}

type chunk struct {
	path       string
	index      int
	start, end int
	text       string
}

func (h *agentSearch) Call(ctx context.Context, c *Call) (Result, error) {
	const name = "host.agent.search"
	if h.o.Embedder == nil {
		// upstream's text, before any argument is read (conformance
		// search-no-embedder); docs/compat/hosts.md says how to configure one
		return domainErr("%s: no embedder configured; wire via NewAgentSearchHandler", name), nil
	}
	a, bad := parseSearchArgs(name, c.Args)
	if bad != "" {
		return domainErr("%s", bad), nil
	}
	wd, err := c.Env.workDir()
	if err != nil {
		return Result{}, fmt.Errorf("%s: %v", name, err)
	}
	maxFiles := cmp.Or(max(h.o.MaxFiles, 0), 2000)
	files, bad := corpusFiles(name, wd, a.globs, maxFiles)
	if bad != "" {
		return domainErr("%s", bad), nil
	}
	model := h.o.Embedder.Model()
	all, skipped, err := h.corpusVectors(ctx, name, wd, files, model, a.chunkLines)
	if err != nil {
		return Result{}, err
	}
	qv, err := h.o.Embedder.Embed(ctx, []string{a.query}, true)
	if err != nil {
		return Result{}, fmt.Errorf("%s: embedding the query: %v", name, err)
	}
	if len(qv) != 1 {
		return Result{}, fmt.Errorf("%s: the embedder returned %d vectors for the query", name, len(qv))
	}
	hits, total, err := rankChunks(name, all, qv[0], a.minScore, a.topK)
	if err != nil {
		return Result{}, err
	}
	return searchResult(hits, total, model, skipped), nil
}

// searchArgs are host.agent.search's with: arguments, defaults applied.
type searchArgs struct {
	query      string
	globs      []string
	topK       int
	minScore   float64
	chunkLines int
}

// parseSearchArgs reads the with: arguments; the second result, when not
// empty, is the domain error saying which one is wrong.
func parseSearchArgs(name string, args map[string]any) (searchArgs, string) {
	a := searchArgs{query: stringify(args["query"])}
	if strings.TrimSpace(a.query) == "" {
		return a, fmt.Sprintf("%s: query argument is required", name)
	}
	if a.globs = corpusGlobs(args["corpus"]); len(a.globs) == 0 {
		return a, fmt.Sprintf("%s: corpus argument is required: a glob such as \"docs/**/*.md\" (or a list of them)", name)
	}
	var err error
	if a.topK, err = intArg(name, args, "top_k", defaultTopK); err != nil {
		return a, err.Error()
	}
	a.topK = cmp.Or(a.topK, defaultTopK)
	if a.minScore, err = floatArg(name, args, "min_score", 0); err != nil {
		return a, err.Error()
	}
	if a.chunkLines, err = intArg(name, args, "chunk_lines", defaultChunkLines); err != nil {
		return a, err.Error()
	}
	a.chunkLines = cmp.Or(a.chunkLines, defaultChunkLines)
	return a, ""
}

// corpusGlobs is corpus: as a list of non-blank globs (a string or a list).
func corpusGlobs(v any) []string {
	var globs []string
	switch t := v.(type) {
	case string:
		if strings.TrimSpace(t) != "" {
			globs = []string{t}
		}
	case []any:
		for _, g := range t {
			if s := stringify(g); strings.TrimSpace(s) != "" {
				globs = append(globs, s)
			}
		}
	}
	return globs
}

// corpusFiles is the sorted union of the globs' files under wd; the second
// result, when not empty, is the domain error (a bad glob, too many files).
func corpusFiles(name, wd string, globs []string, maxFiles int) ([]string, string) {
	var files []string
	for _, g := range globs {
		m, err := glob(wd, g, maxFiles)
		if err != nil {
			return nil, fmt.Sprintf("%s: corpus: %v", name, err)
		}
		files = append(files, m...)
	}
	slices.Sort(files)
	files = slices.Compact(files)
	if len(files) > maxFiles {
		return nil, fmt.Sprintf("%s: corpus selects %d files, more than %d; narrow the glob", name, len(files), maxFiles)
	}
	return files, ""
}

// fileVecs is one corpus file's chunks, their vectors and its cache key.
type fileVecs struct {
	chunks []chunk
	vecs   [][]float32
	key    string
}

// corpusVectors chunks every file and returns its chunks with their
// vectors, reusing cached vectors per (model, chunking, content) and
// embedding the rest in one call; skipped names the files not searched.
func (h *agentSearch) corpusVectors(ctx context.Context, name, wd string, files []string, model string, chunkLines int) ([]*fileVecs, []any, error) {
	var all []*fileVecs
	var pending []*fileVecs
	var skipped []any
	var pendingTexts []string
	// the files are read through an os.Root of wd: a link (or a directory
	// swapped for one since the glob) leading out is skipped, not read
	fr, err := readFileRoot(wd, h.checked)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: corpus: %v", name, err)
	}
	defer fr.Close()
	cache := openEmbedCache(fr, h.o.CacheDir, h.checked)
	defer cache.Close()
	for _, f := range files {
		data, err := fr.ReadFile(filepath.Join(wd, f), maxCorpusFile)
		if err != nil || !utf8.Valid(data) {
			// binary, huge or unreadable files are not searched; Data.skipped names them
			skipped = append(skipped, f)
			continue
		}
		fv := &fileVecs{chunks: chunkText(f, string(data), chunkLines)}
		if len(fv.chunks) == 0 {
			continue
		}
		sum := sha256.Sum256(data)
		fv.key = cacheKey(model, chunkLines, hex.EncodeToString(sum[:]))
		if v, ok := cache.load(fv.key, len(fv.chunks)); ok {
			fv.vecs = v
		} else {
			pending = append(pending, fv)
			for _, ch := range fv.chunks {
				pendingTexts = append(pendingTexts, ch.text)
			}
		}
		all = append(all, fv)
	}
	if len(pendingTexts) > 0 {
		if err := h.embedPending(ctx, name, pending, pendingTexts, cache, model); err != nil {
			return nil, nil, err
		}
	}
	return all, skipped, nil
}

// embedPending embeds the chunks without cached vectors and caches them.
func (h *agentSearch) embedPending(ctx context.Context, name string, pending []*fileVecs, texts []string, cache *embedCache, model string) error {
	vecs, err := h.o.Embedder.Embed(ctx, texts, false)
	if err != nil {
		return fmt.Errorf("%s: embedding the corpus: %v", name, err)
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("%s: the embedder returned %d vectors for %d chunks", name, len(vecs), len(texts))
	}
	i := 0
	for _, fv := range pending {
		fv.vecs = vecs[i : i+len(fv.chunks)]
		i += len(fv.chunks)
		// A cache that cannot be written costs speed, not answers.
		_ = cache.store(fv.key, model, fv.vecs)
	}
	return nil
}

// scoredChunk is a chunk and its cosine score against the query.
type scoredChunk struct {
	ch    chunk
	score float64
}

// rankChunks scores every chunk against the query vector and returns the
// best topK scoring at least minScore (score, then path, then chunk index),
// with the number of chunks scored.
func rankChunks(name string, all []*fileVecs, qv []float32, minScore float64, topK int) ([]scoredChunk, int, error) {
	var hits []scoredChunk
	total := 0
	for _, fv := range all {
		for i, ch := range fv.chunks {
			total++
			s, err := cosine(qv, fv.vecs[i])
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %s chunk %d: %v", name, ch.path, ch.index, err)
			}
			if s >= minScore {
				hits = append(hits, scoredChunk{ch, s})
			}
		}
	}
	// hits holds no NaN score (NaN >= minScore is false)
	slices.SortStableFunc(hits, func(a, b scoredChunk) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.ch.path, b.ch.path), cmp.Compare(a.ch.index, b.ch.index))
	})
	return hits[:min(len(hits), topK)], total, nil
}

// searchResult is the handler's Data for the ranked hits.
func searchResult(hits []scoredChunk, total int, model string, skipped []any) Result {
	out := make([]any, len(hits))
	for i, s := range hits {
		out[i] = map[string]any{
			"path": s.ch.path, "chunk": s.ch.index, "start_line": s.ch.start, "end_line": s.ch.end,
			"score": math.Round(s.score*1e6) / 1e6, "text": s.ch.text,
		}
	}
	var top any
	if len(out) > 0 {
		top = out[0]
	}
	return Result{Data: map[string]any{
		"ok": true, "hits": out, "top": top, "count": len(out), "chunks": total, "model": model,
		"skipped": append([]any{}, skipped...),
	}}
}

// chunkText splits text into chunks of at most lines lines (and about
// maxChunkBytes bytes), skipping blank chunks. Lines are 1-based.
func chunkText(path, text string, lines int) []chunk {
	ls := strings.SplitAfter(text, "\n")
	var out []chunk
	var b strings.Builder
	start := 1
	flush := func(end int) {
		if t := strings.TrimSpace(b.String()); t != "" {
			out = append(out, chunk{path: path, index: len(out), start: start, end: end, text: strings.TrimRight(b.String(), "\n")})
		}
		b.Reset()
		start = end + 1
	}
	n := 0
	for i, l := range ls {
		if l == "" {
			continue
		}
		if b.Len() > 0 && b.Len()+len(l) > maxChunkBytes {
			flush(i)
			n = 0
		}
		b.WriteString(l)
		n++
		if n >= lines {
			flush(i + 1)
			n = 0
		}
	}
	if b.Len() > 0 {
		total := len(ls)
		if ls[total-1] == "" {
			total--
		}
		flush(total)
	}
	return out
}

func cosine(a, b []float32) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("vector sizes differ (%d and %d): was the cache written by another model setting? delete the cache directory", len(a), len(b))
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0, nil
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb)), nil
}

var unsafeName = &lazyre.Regexp{Expr: `[^A-Za-z0-9_-]+`}

// cacheKey names the cache file of one file's vectors.
func cacheKey(model string, chunkLines int, contentSHA string) string {
	return fmt.Sprintf("%s/%s-l%d", unsafeName.ReplaceAllString(model, "-"), contentSHA[:32], chunkLines)
}
