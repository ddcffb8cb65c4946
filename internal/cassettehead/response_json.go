package cassettehead

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/jsonvalue"
)

// ResponseJSONKey is the episode agent key that holds the recorded
// submission as exact JSON text (`response_json: '5'`), written by `kitsoki
// trace to-cassette` wherever `response:` would not replay the same value:
// a number, true, false, null, or a string that starts with { or [ (or is
// empty). It wins over `response:`, whose reading is unchanged.
const ResponseJSONKey = "response_json"

// ResponseJSON reads an episode's response_json: node (nil or zero = absent, the
// answer is `response:`'s). A string scalar is the JSON text; any other
// YAML value (a number, true, null, a mapping written inline) is taken as
// the JSON value it spells. The error names the cassette, episode and fix.
func ResponseJSON(cassette, episode string, n *yaml.Node) (json.RawMessage, error) {
	if n == nil || n.Kind == 0 {
		return nil, nil
	}
	var text string
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		text = strings.TrimSpace(n.Value)
	} else {
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("cassette: %q: episode %q: agent.%s: %v", cassette, episode, ResponseJSONKey, err)
		}
		b, err := json.Marshal(jsonvalue.Normalize(v))
		if err != nil {
			return nil, fmt.Errorf("cassette: %q: episode %q: agent.%s cannot be encoded as JSON: %v", cassette, episode, ResponseJSONKey, err)
		}
		text = string(b)
	}
	if !json.Valid([]byte(text)) {
		return nil, fmt.Errorf("cassette: %q: episode %q: agent.%s %q is not JSON text; quote the exact submission, e.g. response_json: '5' or response_json: '\"five\"'",
			cassette, episode, ResponseJSONKey, clip(text))
	}
	return json.RawMessage(text), nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
