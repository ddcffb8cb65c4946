package eval

import (
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// otherKind says what a file given as a dataset is instead, and what to
// do with it, when it is recognisably another kitsoki file: a story (a
// top-level states: or root:), a cassette or an eval report; "" for a
// dataset (kind: agent_eval) and for a file it cannot tell (no kind or
// another, no states:), whose findings then stay (a misspelt kind or
// examples: in a dataset).
func otherKind(kind string, root *yaml.Node) string {
	if kind == "agent_eval" {
		return ""
	}
	switch kind {
	case "host_cassette":
		return "a cassette (kind: host_cassette), not an eval dataset: pass it to eval run as --cassette FILE, with the dataset (kind: agent_eval) as the argument"
	case "agent_eval_report":
		return "an eval report (kind: agent_eval_report), not an eval dataset: read it with kitsoki eval show FILE"
	}
	for _, key := range []string{"states", "root"} {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == key {
				return "a story (it has " + key + ":), not an eval dataset: give a dataset of one of its calls (kind: agent_eval), e.g. evals/<call>.yaml beside it"
			}
		}
	}
	return "" // a misspelt kind: the rest may be a dataset, its findings stay
}

// otherKindMessage is the finding that follows "kind must be agent_eval"
// for a file of another kind (see otherKind).
func otherKindMessage(d *Dataset) string {
	return filepath.Base(d.Path) + " is " + d.otherKind
}
