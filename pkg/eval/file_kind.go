package eval

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"

	"kitsoki/internal/safefile"
)

// FileKind is the top-level kind of the file at path when it is a kitsoki
// document with one: a JSON object's "kind" member (any member order) or
// a YAML mapping's kind: on a line of its own near the top
// ("agent_eval_report", "agent_eval", …); "" for anything else or a file
// that cannot be read. It reads at most 1 MiB.
func FileKind(path string) string {
	f, err := safefile.Open(path, safefile.Stream)
	if err != nil {
		return ""
	}
	defer f.Close()
	br := bufio.NewReader(io.LimitReader(f, 1<<20))
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
