package agent

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/recost"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// cassetteKind is the value a cassette's kind: must have.
const cassetteKind = "host_cassette"

// checkHeader checks the top-level keys of the cassette name (as the user
// gave it, for messages) and returns its compiled phase_from (nil when
// unset): kind must be host_cassette and record_mode none (or unset) or
// new_episodes. A reader that only replays (pkg/compose's HostCassette)
// refuses new_episodes itself.
func (raw *rawCassette) checkHeader(name string, patterns *recost.Budget) (*regexp.Regexp, error) {
	if raw.Kind != cassetteKind {
		return nil, fmt.Errorf("cassette: %q: kind must be %q, got %q", name, cassetteKind, raw.Kind)
	}
	switch raw.RecordMode {
	case "", "none", "new_episodes":
	default:
		return nil, fmt.Errorf("cassette: %q: record_mode %q is not supported; valid values are \"none\" or \"new_episodes\"", name, raw.RecordMode)
	}
	if raw.PhaseFrom == "" {
		return nil, nil
	}
	re, err := patterns.Compile(raw.PhaseFrom)
	if err != nil {
		return nil, fmt.Errorf("cassette: %q: phase_from regex: %v", name, err)
	}
	return re, nil
}

// cassetteYAMLError is the error for the cassette name whose YAML does not
// decode (err from yaml.Unmarshal, without its "yaml: " prefix).
func cassetteYAMLError(name string, err error) error {
	return fmt.Errorf("cassette: %q: %s", name, yamlnode.ErrText(err))
}

// responseJSON reads an episode's response_json: node (nil or zero =
// absent): the exact submission, which `kitsoki trace to-cassette` writes
// wherever response: would not replay the same value, and which wins over
// it. A string scalar is the JSON text; any other YAML value is the JSON
// value it spells.
func responseJSON(cassette, episode string, n *yaml.Node) (json.RawMessage, error) {
	if n == nil || n.Kind == 0 {
		return nil, nil
	}
	var text string
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		text = strings.TrimSpace(n.Value)
	} else {
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("cassette: %q: episode %q: agent.response_json: %v", cassette, episode, err)
		}
		b, err := json.Marshal(jsonvalue.Normalize(v))
		if err != nil {
			return nil, fmt.Errorf("cassette: %q: episode %q: agent.response_json cannot be encoded as JSON: %v", cassette, episode, err)
		}
		text = string(b)
	}
	if !json.Valid([]byte(text)) {
		return nil, fmt.Errorf("cassette: %q: episode %q: agent.response_json %q is not JSON text; quote the exact submission, e.g. response_json: '5' or response_json: '\"five\"'",
			cassette, episode, diag.Clip(text, 60))
	}
	return json.RawMessage(text), nil
}
