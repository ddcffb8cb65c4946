package localllm

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// Which model an endpoint-mode builtin.local_llm names in its request.
// Most hosted OpenAI-compatible APIs refuse a chat completion without a
// model field, so: the declared model: when there is one; else the first
// model the server lists at GET <base>/v1/models (asked once per run and
// remembered once it answered); else none, and the server picks. Meta's
// model_source says which ("declared", "listed", "server default").

// Model sources reported in meta.model_source.
const (
	modelDeclared      = "declared"
	modelListed        = "listed"
	modelServerDefault = "server default"
)

// maxModelsBody bounds the /v1/models answer.
const maxModelsBody = 4 << 20

// requestModel returns the model to send and where it came from.
func (l *localLLM) requestModel(ctx context.Context, base, key string) (string, string) {
	if l.model != "" {
		return l.model, modelDeclared
	}
	if l.server.managed() {
		return "", modelServerDefault
	}
	l.listedMu.Lock()
	defer l.listedMu.Unlock()
	if l.listed != "" {
		return l.listed, modelListed
	}
	if m := l.listModel(ctx, base, key); m != "" {
		l.listed = m
		return m, modelListed
	}
	return "", modelServerDefault
}

// listModel asks the server for its models and returns the first id, or
// "" when it cannot say (no such route, an error, an empty list).
func (l *localLLM) listModel(ctx context.Context, base, key string) string {
	resp, err := callAPI(ctx, l.client, http.MethodGet, apiURL(base, "models"), nil, l.headers, key)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxModelsBody))
	if err != nil || resp.StatusCode != http.StatusOK {
		return ""
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"` // llama-server also answers in Ollama's shape
	}
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	for _, m := range list.Data {
		if id := strings.TrimSpace(m.ID); id != "" {
			return id
		}
	}
	for _, m := range list.Models {
		if id := strings.TrimSpace(cmp.Or(m.Model, m.Name)); id != "" {
			return id
		}
	}
	return ""
}
