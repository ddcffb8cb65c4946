package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// eval run --json prints the report JSON alone on standard output, as
// written (decision.evidence included), so `eval run --json | jq` reads
// one document; the summary and the wrote lines go to standard error.
// Before, the summary followed the JSON on stdout (jq: "parse error")
// and the JSON lacked decision.evidence.
func TestEvalRunJSONAloneOnStdout(t *testing.T) {
	dir, ds, cas := evStory(t, "  - {name: one, args: {x: a}, expect: {word: a}}\n")
	code, out, errOut := runCmd(t, "eval", "run", "--cassette", cas, "--json", ds)
	if code != 0 {
		t.Fatalf("run: %d\n%s", code, errOut)
	}
	var got any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("stdout is no JSON document: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than the report JSON:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "evals", "reports", "pick", "latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var written any
	if err := json.Unmarshal(b, &written); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, written) {
		t.Errorf("stdout's report differs from latest.json:\n%s\n---\n%s", out, b)
	}
	for _, want := range []string{"decision: cheapest_passing -> cheap\n", "wrote " + filepath.Join(dir, "evals", "reports", "pick", "latest.json")} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}
