package localllm

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"kitsoki/internal/testing/allocs"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// empties is a JSON array of n empty objects: three bytes each, a
// struct element (and its share of the slice's growth) once decoded.
func empties(n int) string { return "[" + strings.Repeat("{},", n-1) + "{}]" }

// A server's answer that would take many times its bytes once decoded is
// refused before it is decoded, naming its size and the limit, as every
// other agent answer is (pkg/agent's submissions and mcp_http answers):
// a chat completion of empty choices (16 MiB of them, the body cap, took
// 1.6 GB), a /v1/models list of empty models (4 MiB: 270 MB), an
// embeddings answer of empty vectors (32 MiB: 2.0 GB). Before, each was
// decoded. The floor is lowered from jsoncost.Floor's 256 MiB; the
// ordinary answer of the same endpoint still answers.
func TestLocalLLMCostlyAnswerIsRefused(t *testing.T) {
	ep := newAnswers(t)
	newLLM := func(model string) *localLLM {
		l, err := newLocalLLM(&story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Endpoint: ep.URL, Model: model},
			agent.BuildContext{StoryDir: t.TempDir(), Logger: discardLogger(), Redact: func(s string) string { return s }}, localLLMConfig{})
		if err != nil {
			t.Fatal(err)
		}
		l.costFloor = 64 << 10
		return l
	}
	refused := func(t *testing.T, err error, what ...string) {
		t.Helper()
		if err == nil {
			t.Fatal("the costly answer was taken")
		}
		for _, w := range append(what, "of JSON that would take over", "the server must answer with fewer values") {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("error %.400q does not say %q", err, w)
			}
		}
	}
	t.Run("chat", func(t *testing.T) {
		ep.set("chat", `{"choices":`+empties(20_000)+`}`)
		_, err := newLLM("m").Ask(ctxFor(t), decideReq("1"))
		refused(t, err, "millions of empty choices")
		ep.set("chat", `{"choices":[{"message":{"content":"{\"verdict\":\"approve\"}"}}]}`)
		if _, err := newLLM("m").Ask(ctxFor(t), decideReq("2")); err != nil {
			t.Fatalf("the ordinary answer: %v", err)
		}
	})
	t.Run("models", func(t *testing.T) {
		ep.set("models", `{"models":`+empties(20_000)+`}`)
		_, err := newLLM("").Ask(ctxFor(t), decideReq("3"))
		refused(t, err, "millions of empty models", "/models", "declare model:")
		ep.set("models", `{"data":[{"id":"listed"}]}`)
		if _, err := newLLM("").Ask(ctxFor(t), decideReq("4")); err != nil {
			t.Fatalf("the ordinary list: %v", err)
		}
	})
	t.Run("embeddings", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"data":`+empties(20_000)+`}`)
		}))
		defer srv.Close()
		e, err := NewEmbedder(EmbedderConfig{Endpoint: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		e.costFloor = 64 << 10
		_, err = e.Embed(context.Background(), []string{"a"}, EmbedDocument)
		refused(t, err, "millions of empty embeddings")
	})
}

// answers is a loopback STAND-IN for an OpenAI-compatible server: it
// answers GET .../models and every other request with the body last set
// for "models" and "chat".
type answers struct {
	*httptest.Server
	mu   sync.Mutex
	body map[string]string
}

func newAnswers(t *testing.T) *answers {
	a := &answers{body: map[string]string{}}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		kind := "chat"
		if strings.HasSuffix(r.URL.Path, "/models") {
			kind = "models"
		}
		a.mu.Lock()
		b := a.body[kind]
		a.mu.Unlock()
		io.WriteString(w, b)
	}))
	t.Cleanup(a.Close)
	return a
}

func (a *answers) set(kind, body string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.body[kind] = body
}

// The refusal is made before decoding: refusing a costly answer allocates
// a small part of its bytes, where decoding it took sixty to a hundred
// times them.
func TestLocalLLMCostlyAnswerAllocatesLittle(t *testing.T) {
	body := []byte(`{"choices":` + empties(1_000_000) + `}`)
	embeds := []byte(`{"data":` + empties(1_000_000) + `}`)
	for name, parse := range map[string]func(floor int64) error{
		"chat":       func(floor int64) error { _, _, err := parseChatResponse(body, floor); return err },
		"embeddings": func(floor int64) error { _, err := parseEmbeddings(embeds, 1, floor); return err },
	} {
		var err error
		alloc := allocs.During(func() { err = parse(64 << 10) })
		if err == nil || !strings.Contains(err.Error(), "would take over") {
			t.Fatalf("%s: %v; want the refusal", name, err)
		}
		if alloc > uint64(len(body))/2 {
			t.Fatalf("%s: refusing %d bytes allocated %d", name, len(body), alloc)
		}
	}
}
