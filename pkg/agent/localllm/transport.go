package localllm

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"

	"kitsoki/internal/childproc"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// builtin.local_llm: one Ask is one POST <base>/v1/chat/completions to a
// llama-server or any OpenAI-compatible endpoint. endpoint: attaches to a
// running server and never fetches, spawns or kills anything; model: alone
// is managed mode (server.go: fetch and supervise one shared sidecar).
// response_format, the model choice (model.go), api_key_env:, headers: and
// env: are in README.md and docs/compat/agent-contract.md §6.

// maxChatBody bounds the response body read from the server.
const maxChatBody = 16 << 20

// maxEmbedBody bounds an embeddings answer (a batch of vectors).
const maxEmbedBody = 32 << 20

// localLLMConfig holds the knobs tests change; the builder uses defaults.
type localLLMConfig struct {
	tune     serverTuning
	disclose io.Writer // download disclosure; the builder uses os.Stderr
	client   *http.Client
}

// localLLM is the builtin.local_llm transport.
type localLLM struct {
	alias      string
	model      string
	grammar    bool
	jsonSchema bool
	apiKeyEnv  string
	headers    http.Header // the declaration's headers: (endpoint mode)
	server     llmServer
	client     *http.Client
	redact     func(string) string

	listedMu sync.Mutex
	listed   string // the model /v1/models listed (model.go)

	// costFloor is jsoncost.Floor for an answer's cost check (0: that
	// floor); tests lower it.
	costFloor int64
}

// New is the agent.Builder of plugin: builtin.local_llm (pkg/compose adds it).
func New(p *story.AgentPlugin, bc agent.BuildContext) (agent.Transport, error) {
	return newLocalLLM(p, bc, localLLMConfig{disclose: os.Stderr})
}

func newLocalLLM(p *story.AgentPlugin, bc agent.BuildContext, cfg localLLMConfig) (*localLLM, error) {
	ep := strings.TrimSpace(p.Endpoint)
	model := strings.TrimSpace(p.Model)
	if ep == "" && model == "" {
		return nil, fmt.Errorf("agent_plugins.%s: builtin.local_llm plugin requires model: or endpoint: (model: qwen2.5-1.5b-instruct runs a managed llama-server; endpoint: http://127.0.0.1:8080 attaches to one you run)", p.Alias)
	}
	l := &localLLM{alias: p.Alias, model: model, grammar: p.Grammar, jsonSchema: p.JSONSchema,
		apiKeyEnv: strings.TrimSpace(p.APIKeyEnv), redact: bc.Mask, client: cfg.client}
	if ep != "" {
		if !isHTTPURL(ep) {
			return nil, fmt.Errorf("agent_plugins.%s: local_llm endpoint %q is not an http:// or https:// URL (e.g. endpoint: http://127.0.0.1:8080)", p.Alias, l.redact(ep))
		}
		l.server = endpointServer{url: strings.TrimRight(ep, "/")}
		l.headers = make(http.Header, len(p.Headers))
		for k, v := range p.Headers {
			l.headers.Set(k, v)
		}
	} else {
		ms := newManagedServer(p.Alias, model, p.ServerBin, bc.StoryDir, p.Port, false, cfg.tune, bc.Logger, cfg.disclose)
		for _, k := range slices.Sorted(maps.Keys(p.Env)) {
			ms.env = append(ms.env, k+"="+p.Env[k])
		}
		l.server = ms
	}
	l.client = cmp.Or(l.client, httpClient(l.server, l.redact))
	return l, nil
}

// isHTTPURL reports an absolute http:// or https:// URL with a host.
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// httpClient is the client for server: a configured endpoint is reached
// through the environment's proxy; our own loopback sidecar never is, and
// keeps no pooled connection to a server that may be restarted.
func httpClient(server llmServer, mask func(string) string) *http.Client {
	if server.managed() {
		return &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyFromEnvironment
	c := &http.Client{Transport: tr}
	if es, ok := server.(endpointServer); ok {
		if u, err := url.Parse(es.url); err == nil {
			c.CheckRedirect = agent.SameOriginRedirects(u, mask) // the declared headers go to the endpoint's origin only
		}
	}
	return c
}

// apiKey reads the bearer token from the variable env names ("" when env
// is ""); ok is false when env is set but the variable is empty.
func apiKey(env string) (key string, ok bool) {
	if env == "" {
		return "", true
	}
	key = os.Getenv(env)
	return key, key != ""
}

// maskKey replaces key in s (a server may echo the token back).
func maskKey(key, s string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "***")
}

// SubstituteOnSchemaInvalid marks the transport for the fallback to agent.claude.
func (l *localLLM) SubstituteOnSchemaInvalid() bool { return true }

func (l *localLLM) Close() error { return l.server.close() }

var versionSegment = &lazyre.Regexp{Expr: `/v[0-9]+$`}

// apiURL is an OpenAI-compatible route ("chat/completions", "embeddings",
// "models") under base: appended to a base whose path already ends in a
// version segment (https://host/api/paas/v4), else after /v1/.
func apiURL(base, route string) string {
	if u, err := url.Parse(base); err == nil && versionSegment.MatchString(u.Path) {
		return base + "/" + route
	}
	return base + "/v1/" + route
}

// callAPI sends a request to url through client with headers, Accept and
// (with a body) Content-Type JSON, and key, when set, as a bearer token.
func callAPI(ctx context.Context, client *http.Client, method, url string, body []byte, headers http.Header, key string) (*http.Response, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return nil, err
	}
	maps.Copy(req.Header, headers)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return client.Do(req)
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type jsonSchemaFormat struct {
	Name   string          `json:"name"`
	Strict bool            `json:"strict"`
	Schema json.RawMessage `json:"schema"`
}

type responseFormat struct {
	Type       string            `json:"type"`
	JSONSchema *jsonSchemaFormat `json:"json_schema"`
}

type chatRequest struct {
	Model          string          `json:"model,omitempty"`
	Messages       []chatMessage   `json:"messages"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

// constraint decides whether response_format is sent: json_schema: true
// for any schema (it wins over grammar), grammar: true only for a schema
// inside llama.cpp's grammar subset (outside it llama.cpp fails open).
func (l *localLLM) constraint(sch json.RawMessage) (grammar, jsonSchema bool) {
	t := bytes.TrimSpace(sch)
	if len(t) == 0 || string(t) == "null" {
		return false, false
	}
	if l.jsonSchema {
		return false, true
	}
	return l.grammar && len(schema.CheckGrammarSubset(t)) == 0, false
}

func (l *localLLM) Ask(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, agent.ContextError(l.alias, err)
	}
	key, ok := apiKey(l.apiKeyEnv)
	if !ok {
		return nil, agent.Errorf(agent.KindTransportError, "%s: api_key_env: environment variable %s is not set; export it with the endpoint's API key, or remove api_key_env: for an endpoint without auth", l.alias, l.apiKeyEnv)
	}
	hide := func(s string) string { return l.redact(maskKey(key, s)) }

	base, err := l.server.baseURL(ctx)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return nil, &agent.AskError{Kind: agent.KindDeadlineExceeded, Detail: hide(l.alias + ": " + err.Error()), Underlying: err}
		}
		return nil, &agent.AskError{Kind: agent.KindTransportError, Detail: hide(err.Error()), Underlying: err}
	}

	grammar, jsonSchema := l.constraint(req.Schema)
	sendModel, modelSource, err := l.requestModel(ctx, base, key)
	if err != nil {
		return nil, err
	}
	body := chatRequest{Model: sendModel, Messages: []chatMessage{{Role: "user", Content: req.Prompt}}}
	if grammar || jsonSchema {
		body.ResponseFormat = &responseFormat{Type: "json_schema",
			JSONSchema: &jsonSchemaFormat{Name: "submission", Strict: true, Schema: bytes.TrimSpace(req.Schema)}}
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, agent.Errorf(agent.KindTransportError, "%s: encode chat request: %v", l.alias, err)
	}
	// The plugin's headers and, when key is set, its bearer token.
	post := func(endpoint string) (*http.Response, error) {
		return callAPI(ctx, l.client, http.MethodPost, endpoint, payload, l.headers, key)
	}
	endpoint := apiURL(base, "chat/completions")
	resp, err := post(endpoint)
	if err != nil && ctx.Err() == nil && isDialError(err) {
		// A managed sidecar that crashed since the last call: restart it
		// and send the request once more.
		if ms, ok := l.server.(*managedServer); ok {
			nb, restarted, rerr := ms.recoverFrom(ctx, base)
			switch {
			case rerr != nil:
				err = rerr
			case restarted:
				endpoint = apiURL(nb, "chat/completions")
				resp, err = post(endpoint)
			}
		}
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, agent.ContextError(l.alias, cerr)
		}
		hint := ""
		if l.server.managed() {
			hint = " (the managed llama-server may have crashed; the next call restarts it)"
		}
		return nil, &agent.AskError{Kind: agent.KindTransportError, Detail: hide(fmt.Sprintf("%s: POST %s: %v%s", l.alias, endpoint, err, hint)), Underlying: err}
	}
	defer resp.Body.Close()
	raw, err := l.readAnswer(ctx, resp, endpoint, hide)
	if err != nil {
		return nil, err
	}
	cr, content, err := parseChatResponse(raw, l.costFloor)
	if err != nil {
		// The error quotes raw cut to 256 bytes: parse the masked body for
		// the message so that no secret straddles the cut.
		_, _, err = parseChatResponse([]byte(hide(string(raw))), l.costFloor)
		if err == nil {
			err = errors.New("unparseable chat response")
		}
	}
	if err != nil {
		return nil, agent.Errorf(agent.KindTransportError, "%s: %s (from %s)", l.alias, hide(err.Error()), hide(endpoint))
	}
	model := cmp.Or(sendModel, cr.Model)
	meta := map[string]any{
		"model":             model,
		"model_source":      modelSource,
		"prompt_tokens":     cr.Usage.PromptTokens,
		"completion_tokens": cr.Usage.CompletionTokens,
		"grammar":           grammar,
		"json_schema":       jsonSchema,
		// The trace's usage box (kitsoki trace stats) reads these names.
		"usage": map[string]any{"input_tokens": cr.Usage.PromptTokens, "output_tokens": cr.Usage.CompletionTokens},
	}
	if tm := serverTimings(cr); tm != nil {
		meta["timings"] = tm
	}
	return &agent.AskResponse{
		Submission: json.RawMessage(agent.StripCodeFence(content)), // claude_cli.go: one fence rule for the package
		Meta:       meta,
		Transcript: chatTranscript(model, req.Prompt, content, cr),
	}, nil
}

// readAnswer reads the answer's body, at most maxChatBody bytes; an HTTP
// error status is a transport error quoting the body (hide masks
// secrets).
func (l *localLLM) readAnswer(ctx context.Context, resp *http.Response, endpoint string, hide func(string) string) ([]byte, error) {
	raw, err := safefile.ReadAtMost(resp.Body, maxChatBody)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, agent.Errorf(agent.KindTransportError, "%s: the answer from %s is larger than %d MiB", l.alias, hide(endpoint), maxChatBody>>20)
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, agent.ContextError(l.alias, cerr)
		}
		return nil, agent.Errorf(agent.KindTransportError, "%s: reading the answer from %s: %s", l.alias, hide(endpoint), hide(err.Error()))
	}
	if resp.StatusCode >= 400 {
		return nil, agent.Errorf(agent.KindTransportError, "%s: http %d from %s: %s%s", l.alias, resp.StatusCode, hide(endpoint), childproc.Snippet(hide, strings.TrimSpace(string(raw))), contextHint(raw, l.server.managed()))
	}
	return raw, nil
}

// isDialError reports a request that never reached a server (connection
// refused, no route): nothing was sent, so sending again is safe.
func isDialError(err error) bool {
	op, ok := errors.AsType[*net.OpError](err)
	return ok && op.Op == "dial"
}

// chatResponse is the part of an OpenAI chat completion kitsoki reads.
type chatResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content   json.RawMessage   `json:"content"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
	// Timings is llama-server's own account of the call (other servers
	// send none); read by serverTimings, never a reason to fail.
	Timings json.RawMessage `json:"timings"`
}

// llamaTimings are the members of llama-server's timings object that a
// trace keeps: tokens and milliseconds of prompt processing and generation,
// and prompt tokens served from the slot's cache.
type llamaTimings struct {
	PromptN     *float64 `json:"prompt_n,omitempty"`
	PromptMS    *float64 `json:"prompt_ms,omitempty"`
	PredictedN  *float64 `json:"predicted_n,omitempty"`
	PredictedMS *float64 `json:"predicted_ms,omitempty"`
	CacheN      *float64 `json:"cache_n,omitempty"`
}

// serverTimings returns the timings of cr for the call's meta, or nil when
// the server sent none or sent them in another shape.
func serverTimings(cr *chatResponse) map[string]float64 {
	var tm llamaTimings
	if len(cr.Timings) == 0 || json.Unmarshal(cr.Timings, &tm) != nil {
		return nil
	}
	out := map[string]float64{}
	for k, v := range map[string]*float64{"prompt_n": tm.PromptN, "prompt_ms": tm.PromptMS, "predicted_n": tm.PredictedN, "predicted_ms": tm.PredictedMS, "cache_n": tm.CacheN} {
		if v != nil {
			out[k] = *v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// parseChatResponse decodes a chat completion and returns the first
// choice's text. The content may be a string or a list of
// {"type":"text","text":...} parts. No choices, an empty content or a body
// that is not a chat completion is an error, and so is one that would take
// over jsoncost's limit (floor 0: jsoncost.Floor) once decoded, refused
// undecoded.
func parseChatResponse(raw []byte, floor int64) (*chatResponse, string, error) {
	if err := costlyAnswer(raw, reflect.TypeFor[chatResponse](), floor, "choices"); err != nil {
		return nil, "", err
	}
	var cr chatResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		return nil, "", fmt.Errorf("unparseable chat response (%s; raw: %s)", jsonvalue.Reason(raw, err), childproc.Snippet(nil, string(raw)))
	}
	if len(cr.Choices) == 0 {
		return nil, "", fmt.Errorf("response has no choices (raw: %s)", childproc.Snippet(nil, string(raw)))
	}
	c := bytes.TrimSpace(cr.Choices[0].Message.Content)
	var text string
	switch {
	case len(c) == 0 || string(c) == "null":
	case c[0] == '"':
		if err := json.Unmarshal(c, &text); err != nil {
			return nil, "", fmt.Errorf("unparseable message content: %s", jsonvalue.Reason(c, err))
		}
	case c[0] == '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(c, &parts); err != nil {
			return nil, "", fmt.Errorf("unparseable message content: %s", jsonvalue.Reason(c, err))
		}
		var b strings.Builder
		for _, p := range parts {
			if p.Type == "text" || p.Type == "" {
				b.WriteString(p.Text)
			}
		}
		text = b.String()
	default:
		return nil, "", fmt.Errorf("message content is neither text nor a list of text parts (raw: %s)", childproc.Snippet(nil, string(c)))
	}
	if strings.TrimSpace(text) == "" {
		return nil, "", errors.New("first choice has empty content")
	}
	return &cr, text, nil
}

// chatTranscript is the openai-chat transcript of one call: the request,
// the raw assistant text (before fence stripping), tool calls, the result.
func chatTranscript(model, prompt, content string, cr *chatResponse) *agent.Transcript {
	ev := func(v any) json.RawMessage {
		b, _ := json.Marshal(v)
		return b
	}
	t := &agent.Transcript{Format: "openai-chat"}
	t.Events = append(t.Events,
		ev(map[string]any{"type": "request", "model": model, "message": map[string]any{"role": "user", "content": prompt}}),
		ev(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant", "content": content}}))
	for _, tc := range cr.Choices[0].Message.ToolCalls {
		var call struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			Args     any    `json:"arguments"`
			Function *struct {
				Name string `json:"name"`
				Args any    `json:"arguments"`
			} `json:"function"`
		}
		if json.Unmarshal(tc, &call) != nil {
			continue
		}
		name, args := call.Name, call.Args
		if call.Function != nil {
			name, args = call.Function.Name, call.Function.Args
		}
		a, ok := args.(string)
		if !ok && args != nil {
			a = string(ev(args))
		}
		t.Events = append(t.Events, ev(map[string]any{"type": "tool_use", "id": call.ID, "name": name, "arguments": a}))
	}
	t.Events = append(t.Events, ev(map[string]any{"type": "result", "result": content,
		"usage": map[string]any{"input_tokens": cr.Usage.PromptTokens, "output_tokens": cr.Usage.CompletionTokens}}))
	return t
}
