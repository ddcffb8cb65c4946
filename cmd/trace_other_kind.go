package cmd

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"

	"kitsoki/internal/safefile"
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
	f, err := safefile.Open(ce.Name, safefile.Stream)
	if err != nil {
		return ""
	}
	defer f.Close()
	br := bufio.NewReader(io.LimitReader(f, 1<<20))
	switch documentKind(br) {
	case "agent_eval_report":
		return "; it is an eval report (kind agent_eval_report), not a JSONL trace: read it with kitsoki eval show " + ce.Name
	case "agent_eval":
		return "; it is an eval dataset (kind: agent_eval), not a JSONL trace: read it with kitsoki eval show " + ce.Name
	}
	return ""
}

// documentKind is the top-level kind of a JSON object (any member order)
// or of a YAML mapping whose kind: is a line of its own near the top; ""
// when there is none.
func documentKind(br *bufio.Reader) string {
	if b, _ := br.Peek(1 << 10); strings.HasPrefix(strings.TrimSpace(string(b)), "{") {
		return jsonKind(json.NewDecoder(br))
	}
	for range 32 {
		line, err := br.ReadString('\n')
		if k, ok := strings.CutPrefix(strings.TrimSpace(line), "kind:"); ok {
			return strings.Trim(strings.TrimSpace(k), `"'`)
		}
		if err != nil {
			break
		}
	}
	return ""
}

// jsonKind reads the top-level object's members until kind.
func jsonKind(dec *json.Decoder) string {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return ""
		}
		if key == "kind" {
			var k string
			json.Unmarshal(v, &k)
			return k
		}
	}
	return ""
}
