package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type recorder struct {
	mu   sync.Mutex
	path string
}

func (r *recorder) add(ev map[string]any) {
	if r.path == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ev["time"] = time.Now().UTC().Format(time.RFC3339Nano)
	line, _ := json.Marshal(ev)
	f, err := os.OpenFile(r.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.Write(append(line, '\n'))
	f.Close()
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fl := flag.NewFlagSet("llama-server", flag.ContinueOnError)
	model := fl.String("m", "", "model path")
	fl.StringVar(model, "model", "", "model path")
	host := fl.String("host", "127.0.0.1", "listen host")
	port := fl.Int("port", 8080, "listen port")
	parallel := fl.Int("parallel", -1, "slots")
	fl.IntVar(parallel, "np", -1, "slots")
	embeddings := fl.Bool("embeddings", false, "embeddings only")
	pooling := fl.String("pooling", "", "pooling")
	version := fl.Bool("version", false, "print version")
	if err := fl.Parse(args); err != nil {
		fmt.Fprintf(os.Stderr, "error: invalid argument: %v\n", err)
		return 1
	}
	rec := &recorder{path: os.Getenv("STANDIN_RECORD")}
	// The dynamic loader fails before main, so before --version too.
	if lib := os.Getenv("STANDIN_REQUIRE_LIB"); lib != "" && !findLib(lib) {
		fmt.Fprintf(os.Stderr, "llama-server: error while loading shared libraries: %s: cannot open shared object file: No such file or directory\n", lib)
		return 127
	}
	if *version {
		fmt.Fprintln(os.Stderr, "version: 9444 (stand-in)")
		return 0
	}
	rec.add(map[string]any{"event": "start", "argv": args, "ld_library_path": os.Getenv("LD_LIBRARY_PATH"), "pid": os.Getpid()})
	if *model == "" {
		fmt.Fprintln(os.Stderr, "error: no model given (-m)")
		return 1
	}
	if _, err := os.Stat(*model); err != nil {
		fmt.Fprintf(os.Stderr, "llama_model_load: error loading model: failed to open %s: %v\n", *model, err)
		return 1
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "main: couldn't bind HTTP server socket, hostname: %s, port: %d: %v\n", *host, *port, err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "main: server is listening on http://%s (stand-in, parallel %d, embeddings %v, pooling %q)\n", ln.Addr(), *parallel, *embeddings, *pooling)

	loadMS := 150
	if s := os.Getenv("STANDIN_LOAD_MS"); s != "" {
		loadMS, _ = strconv.Atoi(s)
	}
	var ready atomic.Bool
	if os.Getenv("STANDIN_NEVER_HEALTHY") != "1" {
		time.AfterFunc(time.Duration(loadMS)*time.Millisecond, func() {
			ready.Store(true)
			fmt.Fprintln(os.Stderr, "main: model loaded")
		})
	}
	dim := 768
	if s := os.Getenv("STANDIN_EMBED_DIM"); s != "" {
		dim, _ = strconv.Atoi(s)
	}
	modelName := filepath.Base(*model)
	mux := http.NewServeMux()
	health := func(w http.ResponseWriter, r *http.Request) {
		// one read: the record says what was answered (the loading timer
		// may flip ready between two reads)
		isReady := ready.Load()
		rec.add(map[string]any{"event": "request", "method": r.Method, "path": r.URL.Path, "ready": isReady})
		if !isReady {
			writeJSON(w, 503, map[string]any{"error": map[string]any{"code": 503, "message": "Loading model", "type": "unavailable_error"}})
			return
		}
		writeJSON(w, 200, map[string]any{"status": "ok"})
	}
	mux.HandleFunc("GET /health", health)
	mux.HandleFunc("GET /v1/health", health)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"object": "list", "data": []any{map[string]any{"id": modelName, "object": "model"}}})
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		rec.add(map[string]any{"event": "request", "method": r.Method, "path": r.URL.Path, "body": json.RawMessage(orNull(body)), "authorization": r.Header.Get("Authorization")})
		if !ready.Load() {
			writeJSON(w, 503, map[string]any{"error": map[string]any{"code": 503, "message": "Loading model", "type": "unavailable_error"}})
			return
		}
		if *embeddings {
			writeJSON(w, 501, map[string]any{"error": map[string]any{"code": 501, "message": "This server does not support completions. Start it without `--embeddings`", "type": "not_supported_error"}})
			return
		}
		var req chatRequest
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
			writeJSON(w, 400, map[string]any{"error": map[string]any{"code": 400, "message": "invalid request: messages required", "type": "invalid_request_error"}})
			return
		}
		// llama-server divides the model's context among the slots; a
		// prompt longer than one slot's share is refused.
		if prompt, slot := promptTokens(req), slotContext(*parallel); slot > 0 && prompt > slot {
			writeJSON(w, 400, map[string]any{"error": map[string]any{"code": 400, "message": "the request exceeds the available context size, try increasing it",
				"type": "exceed_context_size_error", "n_prompt_tokens": prompt, "n_ctx": slot}})
			return
		}
		content := req.answer()
		writeJSON(w, 200, map[string]any{
			"id": "chatcmpl-standin", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": len(body) / 4, "completion_tokens": len(content) / 4, "total_tokens": len(body)/4 + len(content)/4},
		})
	})
	mux.HandleFunc("POST /v1/embeddings", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		rec.add(map[string]any{"event": "request", "method": r.Method, "path": r.URL.Path, "body": json.RawMessage(orNull(body))})
		if !*embeddings {
			writeJSON(w, 501, map[string]any{"error": map[string]any{"code": 501, "message": "This server does not support embeddings. Start it with `--embeddings`", "type": "not_supported_error"}})
			return
		}
		model, inputs := embedInputs(body)
		if len(inputs) == 0 {
			writeJSON(w, 400, map[string]any{"error": map[string]any{"code": 400, "message": "\"input\" must be a string or an array of strings", "type": "invalid_request_error"}})
			return
		}
		data := make([]any, len(inputs))
		for i, in := range inputs {
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": vector(in, dim)}
		}
		writeJSON(w, 200, map[string]any{"object": "list", "model": model, "data": data, "usage": map[string]any{"prompt_tokens": len(body) / 4, "total_tokens": len(body) / 4}})
	})

	srv := &http.Server{Handler: mux}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	ignore := os.Getenv("STANDIN_IGNORE_TERM") == "1"
	go func() {
		for sig := range sigs {
			rec.add(map[string]any{"event": "signal", "signal": sig.String(), "ignored": ignore})
			if ignore {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			srv.Shutdown(ctx)
			cancel()
			return
		}
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(os.Stderr, "main: serve: %v\n", err)
		return 1
	}
	fmt.Fprintln(os.Stderr, "main: shutting down (SIGTERM)")
	rec.add(map[string]any{"event": "exit"})
	return 0
}

// chatRequest is what the stand-in reads of a chat completion request.
type chatRequest struct {
	Model          string `json:"model"`
	Messages       []any  `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string         `json:"name"`
			Strict bool           `json:"strict"`
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
		Schema map[string]any `json:"schema"`
	} `json:"response_format"`
}

// answer is the completion's content: a value shaped by the request's
// json_schema, {} for a top-level schema (llama-server replaces it with
// {}: unconstrained), else STANDIN_CHAT_TEXT or a fixed text.
func (req *chatRequest) answer() string {
	rf := req.ResponseFormat
	switch {
	case rf != nil && rf.Type == "json_schema" && rf.JSONSchema != nil && rf.JSONSchema.Schema != nil:
		b, _ := json.Marshal(shaped(rf.JSONSchema.Schema, 0))
		return string(b)
	case rf != nil && rf.Type == "json_schema" && rf.Schema != nil:
		return "{}"
	}
	if content := os.Getenv("STANDIN_CHAT_TEXT"); content != "" {
		return content
	}
	return "stand-in answer"
}

// embedInputs reads an embeddings request's model and its input, one
// string or a list of them.
func embedInputs(body []byte) (string, []string) {
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", nil
	}
	var one string
	if json.Unmarshal(req.Input, &one) == nil {
		return req.Model, []string{one}
	}
	var inputs []string
	_ = json.Unmarshal(req.Input, &inputs)
	return req.Model, inputs
}

// slotContext is one slot's context: STANDIN_CTX (the model's context;
// 0 or unset means unlimited) divided among parallel slots (-1: auto, one).
func slotContext(parallel int) int {
	ctx, _ := strconv.Atoi(os.Getenv("STANDIN_CTX"))
	if ctx <= 0 {
		return 0
	}
	return ctx / max(parallel, 1)
}

// promptTokens counts a request's messages as one token per 4 bytes.
func promptTokens(req chatRequest) int {
	b, _ := json.Marshal(req.Messages)
	return (len(b) + 3) / 4
}

func orNull(b []byte) []byte {
	if !json.Valid(b) {
		q, _ := json.Marshal(string(b))
		return q
	}
	return b
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func findLib(name string) bool {
	for _, dir := range filepath.SplitList(os.Getenv("LD_LIBRARY_PATH")) {
		if dir == "" {
			continue
		}
		if f, err := os.Open(filepath.Join(dir, name)); err == nil {
			f.Close()
			return true
		}
	}
	return false
}

// vector is a deterministic unit vector derived from text.
func vector(text string, dim int) []float64 {
	v := make([]float64, dim)
	var norm float64
	seed := sha256.Sum256([]byte(text))
	for i := range v {
		h := sha256.Sum256(append(seed[:], byte(i), byte(i>>8)))
		x := float64(int32(binary.LittleEndian.Uint32(h[:4]))) / math.MaxInt32
		v[i] = x
		norm += x * x
	}
	norm = math.Sqrt(norm)
	for i := range v {
		v[i] /= norm
	}
	return v
}

// shaped returns a value valid for simple JSON Schemas (the llama.cpp
// grammar subset: objects, scalars, enums, arrays).
func shaped(s map[string]any, depth int) any {
	if depth > 8 {
		return nil
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			if m, ok := alts[0].(map[string]any); ok {
				return shaped(m, depth+1)
			}
		}
	}
	typ, _ := s["type"].(string)
	if ts, ok := s["type"].([]any); ok && len(ts) > 0 {
		typ, _ = ts[0].(string)
	}
	switch typ {
	case "object", "":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for k, v := range props {
			if m, ok := v.(map[string]any); ok {
				out[k] = shaped(m, depth+1)
			}
		}
		return out
	case "array":
		n := 1
		if mi, ok := s["minItems"].(float64); ok && int(mi) > n {
			n = int(mi)
		}
		items, _ := s["items"].(map[string]any)
		arr := make([]any, 0, n)
		for i := 0; i < n; i++ {
			arr = append(arr, shaped(items, depth+1))
		}
		return arr
	case "string":
		str := "stand-in"
		if ml, ok := s["minLength"].(float64); ok && int(ml) > len(str) {
			str += strings.Repeat("x", int(ml)-len(str))
		}
		return str
	case "integer":
		if m, ok := s["minimum"].(float64); ok {
			return int(math.Ceil(m))
		}
		return 1
	case "number":
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		return 0.5
	case "boolean":
		return true
	case "null":
		return nil
	}
	return nil
}
