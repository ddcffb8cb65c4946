package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/recost"
)

// Phase is the phase a match: phase compares against: capture group 1 of
// phase_from in statePath, else its first dotted segment. It is an error
// when matching phase_from against statePath could take too long (a match
// cannot be interrupted; recost).
func (c *Cassette) Phase(statePath string) (string, error) {
	if c.PhaseFrom != nil {
		if err := recost.Check(c.phaseInsts, len(statePath)); err != nil {
			return "", fmt.Errorf("cassette: %q: phase_from against a state path of %d bytes: %v", c.Path, len(statePath), err)
		}
		m := c.PhaseFrom.FindStringSubmatch(statePath)
		if len(m) > 1 {
			return m[1], nil
		}
		return "", nil
	}
	head, _, _ := strings.Cut(statePath, ".")
	return head, nil
}

// Pick finds the first episode not yet played (or with replay: any) whose
// every match: key passes matches(key, want), marks it played and returns
// it with its match_idx, the number of its earlier matches; nil when none
// matches. The caller says what each key is compared with, and how.
func (c *Cassette) Pick(matches func(key string, want any) bool) (*Episode, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
next:
	for i, ep := range c.Episodes {
		if c.played[i] && ep.Replay != "any" {
			continue
		}
		for k, want := range ep.Match {
			if !matches(k, want) {
				continue next
			}
		}
		c.played[i] = true
		idx := c.counts[ep.ID]
		c.counts[ep.ID] = idx + 1
		return ep, idx
	}
	return nil, 0
}

// agentKey is how an agent call of alias compares with an episode's match:
// key: handler is the alias or host.agent.<verb>, schema_name the base name
// of a non-empty with.schema. A phase that cannot be computed matches
// nothing and is kept in *perr.
func (c *Cassette) agentKey(alias string, req *AskRequest, args map[string]any, perr *error) func(string, any) bool {
	return func(k string, want any) bool {
		switch k {
		case "handler":
			h, _ := want.(string)
			return h == alias || (req.Verb != "" && h == "host.agent."+req.Verb)
		case "phase":
			got, err := c.Phase(req.StatePath)
			if err != nil {
				*perr = err
				return false
			}
			return ValuesEqual(got, want)
		case "schema_name":
			s, _ := args["schema"].(string)
			return s != "" && ValuesEqual(path.Base(s), want)
		default:
			return ValuesEqual(args[k], want)
		}
	}
}

// ValuesEqual is how an episode's match: value is compared with a call's:
// == for strings, bools and floats (so -0.0 == 0.0, as upstream's ==
// holds them: conformance cassette-match-values), else JSON-normalised
// equality (so 1 == 1.0 and maps compare structurally; 1 != "1").
func ValuesEqual(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch a.(type) {
	case string, bool, float64:
		if a == b {
			return true
		}
	}
	ja, err1 := json.Marshal(jsonvalue.Normalize(a))
	jb, err2 := json.Marshal(jsonvalue.Normalize(b))
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
