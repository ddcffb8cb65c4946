package cassettehead

import (
	"fmt"
	"regexp"
	"strings"
)

// kindHostCassette is the value a cassette's kind: must have.
const kindHostCassette = "host_cassette"

// Header is the part of a host_cassette document every reader checks.
// Readers embed it in their document struct with `yaml:",inline"`.
type Header struct {
	Kind       string `yaml:"kind"`
	AppID      string `yaml:"app_id"`
	RecordMode string `yaml:"record_mode"`
	PhaseFrom  string `yaml:"phase_from"`
}

// Check checks the header of the cassette name (as the user gave it, for
// messages) and returns its compiled phase_from (nil when unset): kind must
// be host_cassette and record_mode none (or unset) or new_episodes. A
// reader that only replays passes replayOnly, the reason it gives for
// refusing new_episodes; "" accepts it.
func (h *Header) Check(name, replayOnly string) (*regexp.Regexp, error) {
	if h.Kind != kindHostCassette {
		return nil, fmt.Errorf("cassette: %q: kind must be %q, got %q", name, kindHostCassette, h.Kind)
	}
	switch h.RecordMode {
	case "", "none":
	case "new_episodes":
		if replayOnly != "" {
			return nil, fmt.Errorf("cassette: %q: record_mode %q: %s", name, h.RecordMode, replayOnly)
		}
	default:
		return nil, fmt.Errorf("cassette: %q: record_mode %q is not supported; valid values are \"none\" or \"new_episodes\"", name, h.RecordMode)
	}
	if h.PhaseFrom == "" {
		return nil, nil
	}
	re, err := regexp.Compile(h.PhaseFrom)
	if err != nil {
		return nil, fmt.Errorf("cassette: %q: phase_from regex: %v", name, err)
	}
	return re, nil
}

// YAMLError is the error for the cassette name whose YAML does not decode
// (err from yaml.Unmarshal, without its "yaml: " prefix).
func YAMLError(name string, err error) error {
	return fmt.Errorf("cassette: %q: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
}

// EmptyEpisode is the error for the i-th episode (from 0) of name that is
// null in the file.
func EmptyEpisode(name string, i int) error {
	return fmt.Errorf("cassette: %q: episode %d is empty", name, i)
}
