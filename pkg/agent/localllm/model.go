package localllm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/agent"
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

// requestModel returns the model to send and where it came from; an
// error only for a models list over maxModelsBody (listModel).
func (l *localLLM) requestModel(ctx context.Context, base, key string) (string, string, error) {
	if l.model != "" {
		return l.model, modelDeclared, nil
	}
	if l.server.managed() {
		return "", modelServerDefault, nil
	}
	l.listedMu.Lock()
	defer l.listedMu.Unlock()
	if l.listed != "" {
		return l.listed, modelListed, nil
	}
	m, err := l.listModel(ctx, base, key)
	if err != nil {
		return "", "", err
	}
	if m != "" {
		l.listed = m
		return m, modelListed, nil
	}
	return "", modelServerDefault, nil
}

// modelList is the /v1/models answer, in OpenAI's shape or Ollama's.
type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	Models []struct {
		Name  string `json:"name"`
		Model string `json:"model"`
	} `json:"models"` // llama-server also answers in Ollama's shape
}

// listModel asks the server for its models and returns the first id, or
// "" when it cannot say (no such route, an error, an empty list). An
// answer over maxModelsBody is an error, not a list cut short: cut, it
// would not parse and the call would silently send no model, which a
// hosted API refuses with no word of why.
func (l *localLLM) listModel(ctx context.Context, base, key string) (string, error) {
	endpoint := apiURL(base, "models")
	resp, err := callAPI(ctx, l.client, http.MethodGet, endpoint, nil, l.headers, key)
	if err != nil {
		return "", nil
	}
	defer resp.Body.Close()
	raw, err := safefile.ReadAtMost(resp.Body, maxModelsBody)
	if errors.Is(err, safefile.ErrTooLarge) && resp.StatusCode == http.StatusOK {
		return "", agent.Errorf(agent.KindTransportError, "%s: GET %s (the model list, asked for the model to send) answered more than %d MiB; declare model: for this agent plugin so that no list is asked for",
			l.alias, l.redact(maskKey(key, endpoint)), maxModelsBody>>20)
	}
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", nil
	}
	m, err := firstModel(raw, l.costFloor)
	if err != nil {
		return "", agent.Errorf(agent.KindTransportError, "%s: GET %s (the model list, asked for the model to send): %v; declare model: for this agent plugin so that no list is asked for",
			l.alias, l.redact(maskKey(key, endpoint)), err)
	}
	return m, nil
}

// firstModel is the first model id of a /v1/models answer, "" when it
// names none or is no such list; an error only for an answer that would
// take over jsoncost's limit (floor 0: jsoncost.Floor) once decoded.
func firstModel(raw []byte, floor int64) (string, error) {
	if err := costlyAnswer(raw, reflect.TypeFor[modelList](), floor, "models"); err != nil {
		return "", err
	}
	var list modelList
	if json.Unmarshal(raw, &list) != nil {
		return "", nil
	}
	for _, m := range list.Data {
		if id := strings.TrimSpace(m.ID); id != "" {
			return id, nil
		}
	}
	for _, m := range list.Models {
		if id := strings.TrimSpace(cmp.Or(m.Model, m.Name)); id != "" {
			return id, nil
		}
	}
	return "", nil
}
