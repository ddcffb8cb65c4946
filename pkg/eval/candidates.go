package eval

import (
	"fmt"
	"strings"

	"kitsoki/pkg/story"
)

// CandidateSpec is one cell of the matrix before it runs.
type CandidateSpec struct {
	Profile string `json:"profile"`
	Alias   string `json:"alias"`   // agent_plugins alias the profile names
	Backend string `json:"backend"` // the alias's plugin type
	Model   string `json:"model"`   // "" = the backend's default
	Effort  string `json:"effort,omitempty"`
	// CostPerHourUSD is matrix.cost_per_hour_usd of the profile.
	CostPerHourUSD *float64 `json:"cost_per_hour_usd,omitempty"`
}

// withRate sets sp's matrix.cost_per_hour_usd from d.
func (sp CandidateSpec) withRate(d *Dataset) CandidateSpec {
	if r, ok := d.Matrix.CostPerHourUSD[sp.Profile]; ok {
		sp.CostPerHourUSD = &r
	}
	return sp
}

// expandMatrix lists the candidates of a validated dataset in matrix order:
// profile × its models × effort (none: one candidate). A profile without
// matrix.models runs its backend's own model (the alias's, else the
// persona's). In a cassette run the cassette answers every profile, as
// agent.<profile> when it is no alias: its backend is "cassette" and it
// has no model unless matrix.models names one, since a label naming the
// alias's or the persona's model would name a model nothing ran.
func expandMatrix(d *Dataset, st *story.Story, cs *CallSite, cassette bool) ([]CandidateSpec, error) {
	if len(d.Matrix.Profiles) == 0 {
		return nil, fmt.Errorf("%s: matrix.profiles is empty: list the agent_plugins aliases to measure", d.Path)
	}
	efforts := d.Matrix.Effort
	if len(efforts) == 0 {
		efforts = []string{""}
	}
	var out []CandidateSpec
	for _, p := range d.Matrix.Profiles {
		alias := resolveProfile(st, p)
		if alias == "" && !cassette {
			return nil, fmt.Errorf("%s: matrix profile %q is not an agent_plugins alias of %s (declare agent_plugins: agent.%s, or run with --cassette)", d.Path, p, st.File, p)
		}
		if alias == "" {
			alias = "agent." + strings.TrimPrefix(p, "agent.")
		}
		backend, models := "cassette", d.Matrix.Models[p]
		if !cassette {
			backend = st.AgentPlugins[alias].Plugin
		}
		if len(models) == 0 {
			models = []string{""}
			if !cassette {
				models[0] = defaultModel(st, alias, cs)
			}
		}
		for _, m := range models {
			for _, e := range efforts {
				out = append(out, CandidateSpec{Profile: p, Alias: alias, Backend: backend, Model: m, Effort: e}.withRate(d))
			}
		}
	}
	return out, nil
}

func defaultModel(st *story.Story, alias string, cs *CallSite) string {
	if p := st.AgentPlugins[alias]; p != nil && p.Model != "" {
		return p.Model
	}
	if cs != nil {
		if pr := st.Agents[cs.Agent]; pr != nil {
			return pr.Model
		}
	}
	return ""
}
