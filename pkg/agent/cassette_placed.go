package agent

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// cassetteDecodeError is the error of the cassette name (size bytes)
// whose document doc yaml.v3 refused to decode into a rawCassette with
// err: what the yamlnode Walker finds wrong placed at its line and column
// ("cassette: c.yaml:4:11: episodes[0].id: expected a string, got a
// mapping"), or err's own text when the walk finds nothing. Decoding comes
// first, so what loads is what yaml.v3 (as upstream's decoder) accepts.
func cassetteDecodeError(name string, size int, doc *yaml.Node, err error) error {
	w := yamlnode.NewFileWalker(name, size)
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	w.Mapping(root, "top level", nil, func(key string, _, v *yaml.Node) {
		switch key {
		case "kind", "app_id", "record_mode", "phase_from", "app_version", "source_run", "generated_at":
			yamlnode.Decoded[string](w, v, key, "a string")
		case "match_on":
			w.DecodedStrList(v, key)
		case "episodes":
			w.Seq(v, key, func(i int, ep *yaml.Node) { placeEpisode(w, ep, yamlnode.Indexed(key, i)) })
		}
	})
	if len(*w.Out) == 0 {
		// a tag its text does not fit, in a value no key above reads
		w.Undecodable(root, yamlnode.Place{})
	}
	if werr := w.Err(); werr != nil {
		return fmt.Errorf("cassette: %w", werr)
	}
	return cassetteYAMLError(name, err)
}

// placeEpisode reports what in the episode ep (named where) a rawEpisode
// cannot hold.
func placeEpisode(w *yamlnode.Walker, ep *yaml.Node, where string) {
	w.Mapping(ep, where, nil, func(key string, _, v *yaml.Node) {
		at := where + "." + key
		switch key {
		case "id", "replay", "delay":
			yamlnode.Decoded[string](w, v, at, "a string")
		case "match":
			w.Mapping(v, at, nil, nil)
		case "response":
			w.Mapping(v, at, nil, func(key string, _, v *yaml.Node) {
				switch key {
				case "data":
					w.Mapping(v, at+"."+key, nil, nil)
				case "error", "infra_error":
					yamlnode.Decoded[string](w, v, at+"."+key, "a string")
				}
			})
		case "agent":
			placeAgent(w, v, at)
		}
	})
}

// placeAgent reports what in an episode's agent: block (named where) a
// rawAgent cannot hold: a string key that is no scalar, a number key as
// agentInt and agentFloat refuse it, a transcript of the wrong shape.
func placeAgent(w *yamlnode.Walker, a *yaml.Node, where string) {
	w.Mapping(a, where, nil, func(key string, _, v *yaml.Node) {
		at := where + "." + key
		switch key {
		case "verb", "agent", "model", "prompt", "error", "system_prompt", "call_id":
			yamlnode.Decoded[string](w, v, at, "a string")
		case "duration_ms", "prompt_tokens", "response_tokens", "turn":
			placeNumber(w, v, at, new(agentInt))
		case "cost_usd":
			placeNumber(w, v, at, new(agentFloat))
		case "transcript":
			w.Mapping(v, at, nil, func(key string, _, v *yaml.Node) {
				switch key {
				case "format":
					yamlnode.Decoded[string](w, v, at+"."+key, "a string")
				case "events":
					w.Seq(v, at+"."+key, func(int, *yaml.Node) {})
				case "timings":
					w.Seq(v, at+"."+key, func(i int, t *yaml.Node) { placeNumber(w, t, yamlnode.Indexed(at+"."+key, i), new(agentInt)) })
				}
			})
		}
	})
}

// placeNumber reports v at where when n (an agentInt or agentFloat)
// refuses it.
func placeNumber(w *yamlnode.Walker, v *yaml.Node, where string, n yaml.Unmarshaler) {
	if n.UnmarshalYAML(yamlnode.Deref(v)) == nil {
		return
	}
	shape := "a number"
	if _, ok := n.(*agentInt); ok {
		shape = "an integer"
	}
	w.Report(w.Pos(v), diag.Error, w.Rules.Type, "%s: expected %s, got %s", where, shape, yamlnode.Describe(v))
}
