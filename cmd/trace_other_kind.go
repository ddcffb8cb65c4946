package cmd

import (
	"kitsoki/pkg/eval"
	"kitsoki/pkg/trace"
)

// otherKindHint names what a file a trace command refused on its first
// line is instead, when it is an eval report or dataset (a user reading
// evals/reports/<call>/latest.json with kitsoki trace show), and the
// command that reads it; "" for anything else, standard input included.
func otherKindHint(ce *trace.CorruptError) string {
	if ce.Line != 1 || (ce.Rule != trace.RuleHeaderJSON && ce.Rule != trace.RuleHeaderKind) || ce.Name == "-" {
		return ""
	}
	switch eval.FileKind(ce.Name) {
	case "agent_eval_report":
		return "; it is an eval report (kind agent_eval_report), not a JSONL trace: read it with kitsoki eval show " + ce.Name
	case "agent_eval":
		return "; it is an eval dataset (kind: agent_eval), not a JSONL trace: read it with kitsoki eval show " + ce.Name
	}
	return ""
}
