package localllm_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/internal/testing/proctest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/story"
)

// chatEndpoint is a loopback STAND-IN for an OpenAI-compatible chat server
// (llama-server in endpoint mode, or a hosted API): it records every
// request and answers with what the test sets.
type chatEndpoint struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []recordedChat
	status  int
	body    string        // raw response body; "" = a completion of content
	content string        // the assistant content
	delay   time.Duration // before answering
	// models is the GET .../models answer ("" = a 404); modelGets counts
	// those requests (they are not in reqs).
	models    string
	modelGets int
}

type recordedChat struct {
	Path   string
	Auth   string
	Header http.Header
	Body   map[string]any
}

func newChatEndpoint(t testing.TB) *chatEndpoint {
	t.Helper()
	c := &chatEndpoint{status: 200, content: `{"verdict":"approve"}`}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
			c.mu.Lock()
			c.modelGets++
			models := c.models
			c.mu.Unlock()
			if models == "" {
				http.NotFound(w, r)
				return
			}
			io.WriteString(w, models)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		c.mu.Lock()
		c.reqs = append(c.reqs, recordedChat{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Header: r.Header.Clone(), Body: body})
		status, out, content, delay := c.status, c.body, c.content, c.delay
		c.mu.Unlock()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		if out == "" {
			b, _ := json.Marshal(map[string]any{
				"model":   "served-model",
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}}},
				"usage":   map[string]any{"prompt_tokens": 11, "completion_tokens": 7},
			})
			out = string(b)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, out)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *chatEndpoint) set(f func(c *chatEndpoint)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c)
}

func (c *chatEndpoint) requests() []recordedChat {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]recordedChat(nil), c.reqs...)
}

const (
	verdictSchema    = `{"type":"object","required":["verdict"],"properties":{"verdict":{"enum":["approve","reject"]}},"additionalProperties":false}`
	outOfSubsetSchem = `{"type":"object","required":["verdict"],"properties":{"verdict":{"enum":["approve","reject"]}},"not":{"required":["x"]}}`
)

// localFixture declares agent.local in endpoint mode against ep.
// local adds builtin.local_llm's builder to o, as the composition root
// does.
func local(o agent.RegistryOptions) agent.RegistryOptions {
	o.Builders = map[string]agent.Builder{story.PluginLocalLLM: localllm.New}
	return o
}

func localFixture(t *testing.T, ep string, mod func(p *story.AgentPlugin)) *agenttest.Fixture {
	t.Helper()
	p := &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Endpoint: ep, Model: "qwen-test"}
	if mod != nil {
		mod(p)
	}
	fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{"agent.local": p}, local(agent.RegistryOptions{}))
	fx.WriteSchema("verdict.json", verdictSchema)
	fx.WriteSchema("wide.json", outOfSubsetSchem)
	return fx
}

func TestLocalLLMRequestShapeGrammarInsideSubset(t *testing.T) {
	ep := newChatEndpoint(t)
	ep.set(func(c *chatEndpoint) { c.content = "```json\n{\"verdict\":\"approve\"}\n```" })
	fx := localFixture(t, ep.URL, func(p *story.AgentPlugin) { p.Grammar = true })
	res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "decide", Prompt: "approve?", SchemaPath: "schemas/verdict.json"})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Submission) != `{"verdict":"approve"}` {
		t.Fatalf("code fence not stripped: %q", res.Submission)
	}
	reqs := ep.requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" {
		t.Fatalf("requests %+v", reqs)
	}
	b := reqs[0].Body
	if b["model"] != "qwen-test" {
		t.Errorf("model %v", b["model"])
	}
	msgs, _ := b["messages"].([]any)
	if len(msgs) != 1 || msgs[0].(map[string]any)["role"] != "user" || msgs[0].(map[string]any)["content"] != "approve?" {
		t.Errorf("messages %v", msgs)
	}
	rf, _ := b["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js == nil || js["strict"] != true || js["name"] != "submission" {
		t.Fatalf("response_format not in the nested OpenAI form: %v", b["response_format"])
	}
	if _, top := rf["schema"]; top {
		t.Error("response_format also carries a top-level schema (llama-server ignores that form)")
	}
	sch, _ := json.Marshal(js["schema"])
	if !jsonEqual(string(sch), verdictSchema) {
		t.Errorf("schema sent %s", sch)
	}
	m := res.Meta
	if m["model"] != "qwen-test" || m["grammar"] != true || m["json_schema"] != false || m["prompt_tokens"] != int64(11) || m["completion_tokens"] != int64(7) {
		t.Errorf("meta %v", m)
	}
	if res.Transcript == nil || res.Transcript.Format != "openai-chat" || len(res.Transcript.Events) != 3 {
		t.Errorf("transcript %+v", res.Transcript)
	} else if !strings.Contains(string(res.Transcript.Events[1]), "```json") {
		t.Errorf("transcript assistant event is not the raw content: %s", res.Transcript.Events[1])
	}
}

func TestLocalLLMResponseFormatGate(t *testing.T) {
	cases := []struct {
		name                string
		grammar, jsonSchema bool
		schema              string
		wantSent            bool
		wantGrammar, wantJS bool
	}{
		{"grammar outside subset fails open, not sent", true, false, "schemas/wide.json", false, false, false},
		{"json_schema for any schema", false, true, "schemas/wide.json", true, false, true},
		{"json_schema wins over grammar", true, true, "schemas/verdict.json", true, false, true},
		{"no knob", false, false, "schemas/verdict.json", false, false, false},
		{"no schema", true, true, "", false, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ep := newChatEndpoint(t)
			fx := localFixture(t, ep.URL, func(p *story.AgentPlugin) { p.Grammar, p.JSONSchema = tc.grammar, tc.jsonSchema })
			res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "decide", Prompt: "p", SchemaPath: tc.schema})
			if err != nil {
				t.Fatal(err)
			}
			_, sent := ep.requests()[0].Body["response_format"]
			if sent != tc.wantSent || res.Meta["grammar"] != tc.wantGrammar || res.Meta["json_schema"] != tc.wantJS {
				t.Fatalf("sent=%v meta=%v", sent, res.Meta)
			}
		})
	}
}

func TestLocalLLMAPIKeyEnv(t *testing.T) {
	ep := newChatEndpoint(t)
	fx := localFixture(t, ep.URL, func(p *story.AgentPlugin) {
		p.APIKeyEnv = "KITSOKI_TEST_LLM_KEY"
		p.Headers = map[string]string{"X-Org": "acme", "Authorization": "Bearer from-headers"}
	})
	call := agent.Call{Alias: "agent.local", Verb: "ask", Prompt: "p"}

	t.Setenv("KITSOKI_TEST_LLM_KEY", "")
	os.Unsetenv("KITSOKI_TEST_LLM_KEY")
	_, err := fx.Registry.Dispatch(context.Background(), call)
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "KITSOKI_TEST_LLM_KEY is not set") {
		t.Fatalf("unset key: %v", err)
	}
	if n := len(ep.requests()); n != 0 {
		t.Fatalf("an unauthenticated request was sent (%d)", n)
	}

	const secret = "sk-planted-secret-123"
	t.Setenv("KITSOKI_TEST_LLM_KEY", secret)
	if _, err := fx.Registry.Dispatch(context.Background(), call); err != nil {
		t.Fatal(err)
	}
	if got := ep.requests()[0].Auth; got != "Bearer "+secret {
		t.Fatalf("authorization %q (api_key_env wins over headers:)", got)
	}
	if got := ep.requests()[0].Header.Get("X-Org"); got != "acme" {
		t.Fatalf("declared header X-Org = %q", got)
	}
	// A server that echoes the key in an error never gets it into the trace.
	ep.set(func(c *chatEndpoint) { c.status, c.body = 401, `{"error":"bad key `+secret+`"}` })
	_, err = fx.Registry.Dispatch(context.Background(), call)
	if agent.KindOf(err) != agent.KindTransportError || strings.Contains(err.Error(), secret) {
		t.Fatalf("401: %v", err)
	}
	// The echoed body is cut to 256 bytes; a key straddling the cut must
	// not leave its head behind (mask first, then cut), on an HTTP error
	// and on an unparseable 200 alike.
	head := secret[:5] // 250+5 < 256: the head survives a cut made before masking
	for _, status := range []int{401, 200} {
		ep.set(func(c *chatEndpoint) { c.status, c.body = status, strings.Repeat("x", 250)+secret })
		_, err = fx.Registry.Dispatch(context.Background(), call)
		if agent.KindOf(err) != agent.KindTransportError || strings.Contains(err.Error(), head) {
			t.Fatalf("%d with the key across the cut: %v", status, err)
		}
	}
	for _, line := range fx.Sink.JSON() {
		if strings.Contains(line, secret) || strings.Contains(line, head) {
			t.Fatalf("secret in an event: %s", line)
		}
	}
}

func TestLocalLLMTransportErrors(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"4xx", 400, `{"error":{"message":"bad request"}}`, "http 400"},
		{"5xx", 503, `{"error":{"message":"Loading model"}}`, "http 503"},
		{"empty choices", 200, `{"choices":[]}`, "no choices"},
		{"missing choices", 200, `{"id":"x"}`, "no choices"},
		{"empty content", 200, `{"choices":[{"message":{"role":"assistant","content":""}}]}`, "empty content"},
		{"null content", 200, `{"choices":[{"message":{"role":"assistant","content":null}}]}`, "empty content"},
		{"unparseable body", 200, `<html>gateway</html>`, "unparseable"},
		{"content of the wrong type", 200, `{"choices":[{"message":{"content":42}}]}`, "neither text"},
		{"prompt over a slot's context", 400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":2048}}`,
			"(the prompt has 9000 tokens, a slot holds 2048): llama-server divides -c among its -np slots"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ep := newChatEndpoint(t)
			ep.set(func(c *chatEndpoint) { c.status, c.body = tc.status, tc.body })
			fx := localFixture(t, ep.URL, nil)
			_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "decide", Prompt: "p", SchemaPath: "schemas/verdict.json"})
			if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want transport_error containing %q", err, tc.want)
			}
			if tc.status == 400 && !strings.Contains(tc.body, "context") && strings.Contains(err.Error(), "slot") {
				t.Fatalf("a 400 of another kind explains slots: %v", err)
			}
			if k := fx.Sink.Kinds(); strings.Join(k, ",") != "agent.call.start,agent.call.error" {
				t.Fatalf("events %v", k)
			}
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		ep := newChatEndpoint(t)
		url := ep.URL
		ep.Close()
		fx := localFixture(t, url, nil)
		_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "ask", Prompt: "p"})
		if agent.KindOf(err) != agent.KindTransportError {
			t.Fatalf("got %v", err)
		}
	})
}

func TestLocalLLMContentParts(t *testing.T) {
	ep := newChatEndpoint(t)
	ep.set(func(c *chatEndpoint) {
		c.body = `{"choices":[{"message":{"content":[{"type":"text","text":"{\"verdict\":"},{"type":"text","text":"\"reject\"}"}]}}]}`
	})
	fx := localFixture(t, ep.URL, nil)
	res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "decide", Prompt: "p", SchemaPath: "schemas/verdict.json"})
	if err != nil || string(res.Submission) != `{"verdict":"reject"}` {
		t.Fatalf("%v %s", err, res.Submission)
	}
}

func TestLocalLLMDeadlines(t *testing.T) {
	ep := newChatEndpoint(t)
	ep.set(func(c *chatEndpoint) { c.delay = time.Hour }) // answers never: the verdict needs no race between two clocks
	fx := localFixture(t, ep.URL, nil)
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "ask", Prompt: "p", Timeout: 100 * time.Millisecond})
	if agent.KindOf(err) != agent.KindDeadlineExceeded {
		t.Fatalf("slow server: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = fx.Registry.Dispatch(ctx, agent.Call{Alias: "agent.local", Verb: "ask", Prompt: "p"})
	if agent.KindOf(err) != agent.KindDeadlineExceeded {
		t.Fatalf("cancelled ctx: %v", err)
	}
}

// Endpoint mode never fetches, spawns or kills; managed mode fetches
// nothing before the first Ask (a registry that declares it but never
// routes to it touches neither the cache nor the network).
func TestLocalLLMNoFetchUntilAsked(t *testing.T) {
	proctest.CheckNoChildren(t)
	cache := t.TempDir()
	t.Setenv("KITSOKI_CACHE_DIR", cache)
	t.Setenv("KITSOKI_PINS", "/nonexistent/pins.yaml") // any pin lookup would fail loudly
	ep := newChatEndpoint(t)
	plugins := map[string]*story.AgentPlugin{
		"agent.local":   {Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: "qwen2.5-1.5b-instruct"},
		"agent.remote":  {Alias: "agent.remote", Plugin: story.PluginLocalLLM, Endpoint: ep.URL},
		"agent.unknown": {Alias: "agent.unknown", Plugin: story.PluginLocalLLM, Model: "no-such-model", ServerBin: "/nonexistent/llama-server"},
	}
	fx := agenttest.NewFixture(t, plugins, local(agent.RegistryOptions{}))
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.remote", Verb: "ask", Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	if err := fx.Registry.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Fatalf("the cache was touched: %v", ents)
	}
}

func TestLocalLLMVersionedEndpointPath(t *testing.T) {
	ep := newChatEndpoint(t)
	fx := localFixture(t, ep.URL+"/api/paas/v4/", nil)
	if _, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "ask", Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	if p := ep.requests()[0].Path; p != "/api/paas/v4/chat/completions" {
		t.Fatalf("path %s", p)
	}
}

func TestLocalLLMBadDeclarations(t *testing.T) {
	for name, p := range map[string]*story.AgentPlugin{
		"neither":    {Alias: "agent.local", Plugin: story.PluginLocalLLM},
		"bad url":    {Alias: "agent.local", Plugin: story.PluginLocalLLM, Endpoint: "localhost:8080"},
		"bad scheme": {Alias: "agent.local", Plugin: story.PluginLocalLLM, Endpoint: "ftp://h/"},
	} {
		_, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{"agent.local": p}, local(agent.RegistryOptions{StoryDir: t.TempDir()}))
		if err == nil || !strings.Contains(err.Error(), "agent_plugins.agent.local:") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

// TestLocalLLMEndpointModel: endpoint mode sends the declared model, else
// the one the server lists at /v1/models (asked once), else none; meta's
// model_source says which. The server is a real loopback HTTP server.
func TestLocalLLMEndpointModel(t *testing.T) {
	cases := []struct {
		name, declared, models, wantSent, wantSource string
		wantGets                                     int
	}{
		{"declared", "glm-4.6", `{"object":"list","data":[{"id":"other"}]}`, "glm-4.6", "declared", 0},
		{"listed", "", `{"object":"list","data":[{"id":"glm-4.5-air","object":"model"},{"id":"second"}]}`, "glm-4.5-air", "listed", 1},
		{"ollama shape", "", `{"models":[{"name":"qwen:1b","model":"qwen2.5:1.5b"}]}`, "qwen2.5:1.5b", "listed", 1},
		{"no list", "", "", "", "server default", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ep := newChatEndpoint(t)
			ep.set(func(c *chatEndpoint) { c.models = tc.models })
			reg, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{
				"agent.glm": {Alias: "agent.glm", Plugin: story.PluginLocalLLM, Endpoint: ep.URL + "/api/paas/v4", Model: tc.declared},
			}, local(agent.RegistryOptions{AppID: "m", StoryDir: t.TempDir()}))
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			var res *agent.Result
			for range 2 {
				if res, err = reg.Dispatch(context.Background(), agent.Call{Alias: "agent.glm", Verb: "ask", Prompt: "hi"}); err != nil {
					t.Fatal(err)
				}
			}
			reqs := ep.requests()
			sent, has := reqs[len(reqs)-1].Body["model"]
			if tc.wantSent == "" && has {
				t.Fatalf("sent model %v, want none", sent)
			}
			if tc.wantSent != "" && sent != tc.wantSent {
				t.Fatalf("sent model %v, want %q", sent, tc.wantSent)
			}
			if res.Meta["model_source"] != tc.wantSource {
				t.Fatalf("meta %v", res.Meta)
			}
			if reqs[0].Path != "/api/paas/v4/chat/completions" {
				t.Fatalf("chat path %s", reqs[0].Path)
			}
			ep.mu.Lock()
			gets := ep.modelGets
			ep.mu.Unlock()
			if gets != tc.wantGets {
				t.Fatalf("GET /models %d times, want %d", gets, tc.wantGets)
			}
		})
	}
}

// TestLocalLLMEndpointModelListTooLarge: a /v1/models answer over
// 4 MiB (maxModelsBody) is a transport error naming the endpoint, the limit and
// the fix (declare model:), not a list cut short that silently sends no
// model.
func TestLocalLLMEndpointModelListTooLarge(t *testing.T) {
	ep := newChatEndpoint(t)
	big := `{"data":[{"id":"first"}],"pad":"` + strings.Repeat("x", 4<<20) + `"}`
	ep.set(func(c *chatEndpoint) { c.models = big })
	reg, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{
		"agent.glm": {Alias: "agent.glm", Plugin: story.PluginLocalLLM, Endpoint: ep.URL + "/v1"},
	}, local(agent.RegistryOptions{AppID: "m", StoryDir: t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	_, err = reg.Dispatch(context.Background(), agent.Call{Alias: "agent.glm", Verb: "ask", Prompt: "hi"})
	if err == nil {
		t.Fatal("a models list over the cap was accepted")
	}
	for _, want := range []string{"agent.glm", ep.URL + "/v1/models", "4 MiB", "model:"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not say %q", err, want)
		}
	}
	if reqs := ep.requests(); len(reqs) != 0 {
		t.Fatalf("a chat request was sent: %v", reqs[0].Body)
	}
}

// llama-server's timings (prompt and generation tokens and milliseconds,
// cached prompt tokens) reach the call's meta; timings of another shape
// are left out without failing the call.
func TestLocalLLMTimingsInMeta(t *testing.T) {
	ep := newChatEndpoint(t)
	fx := localFixture(t, ep.URL, nil)
	answer := func(timings string) string {
		return `{"model":"m","choices":[{"message":{"role":"assistant","content":"{\"verdict\":\"approve\"}"}}],"usage":{"prompt_tokens":11,"completion_tokens":7},"timings":` + timings + `}`
	}
	ep.set(func(c *chatEndpoint) {
		c.body = answer(`{"cache_n":3,"prompt_n":8,"prompt_ms":12.5,"predicted_n":7,"predicted_ms":40.25,"predicted_per_second":174.0}`)
	})
	res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "decide", Prompt: "approve?", SchemaPath: "schemas/verdict.json"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Meta["timings"])
	if string(got) != `{"cache_n":3,"predicted_ms":40.25,"predicted_n":7,"prompt_ms":12.5,"prompt_n":8}` {
		t.Fatalf("meta timings = %s (meta %v)", got, res.Meta)
	}
	for _, odd := range []string{`"fast"`, `{"prompt_n":"8"}`, `{}`, `null`} {
		ep.set(func(c *chatEndpoint) { c.body = answer(odd) })
		res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "decide", Prompt: "approve?", SchemaPath: "schemas/verdict.json"})
		if err != nil {
			t.Fatalf("timings %s failed the call: %v", odd, err)
		}
		if _, ok := res.Meta["timings"]; ok {
			t.Errorf("timings %s reached the meta: %v", odd, res.Meta["timings"])
		}
	}
}

// An endpoint that redirects to another origin gets neither the declared
// headers (an X-Api-Key: ${KEY}, which Go's client would forward, unlike
// Authorization) nor the call: the call fails naming the redirect (before
// the fix the header followed the redirect).
func TestLocalLLMRedirectToAnotherOriginCarriesNoHeader(t *testing.T) {
	const key = "xkey-redirect-8812"
	var leaked sync.Mutex
	seen := 0
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") == key {
			leaked.Lock()
			seen++
			leaked.Unlock()
		}
		http.Error(w, "not here", http.StatusNotFound)
	}))
	t.Cleanup(other.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	fx := localFixture(t, redirector.URL, func(p *story.AgentPlugin) { p.Headers = map[string]string{"X-Api-Key": key} })
	_, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "ask", Prompt: "p"})
	leaked.Lock()
	defer leaked.Unlock()
	if seen != 0 {
		t.Fatalf("the declared header reached the other origin %d time(s)", seen)
	}
	if agent.KindOf(err) != agent.KindTransportError || !strings.Contains(err.Error(), "redirected to another origin") {
		t.Fatalf("want a transport_error naming the redirect, got %v", err)
	}
}
