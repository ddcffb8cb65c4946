//go:build unix

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestRunHostProvider: kitsoki run serves host.vcsx.push from a host
// provider declared under .kitsoki/plugins/ — a real child process (a
// shell script answering one JSON line per call) — and without it the
// run is refused before it starts, naming the ways to provide one.
func TestRunHostProvider(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": `app: { id: provdemo, version: 0.1.0 }
hosts: [host.vcsx, host.vcsx.push] # the allow-list matches names as written, as upstream
world:
  pushed: { type: string, default: "" }
root: start
states:
  start:
    on_enter:
      - invoke: host.vcsx.push
        with: { branch: main }
        bind: { pushed: result_text }
    terminal: true
`,
		".kitsoki/plugins/gitp/manifest.yaml": "id: gitp\nsummary: stand-in git provider\nhosts: [host.vcsx]\nentry: { command: ./gitp.sh }\n",
		".kitsoki/plugins/gitp/gitp.sh": `#!/bin/sh
while IFS= read -r line; do
  op=$(printf '%s' "$line" | sed -n 's/.*"op":"\([a-z_]*\)".*/\1/p')
  branch=$(printf '%s' "$line" | sed -n 's/.*"branch":"\([a-z_]*\)".*/\1/p')
  printf '{"data":{"result_text":"%s %s from pid %s"}}\n' "$op" "$branch" "$$"
done
`,
	})
	if err := os.Chmod(filepath.Join(root, ".kitsoki/plugins/gitp/gitp.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	story := filepath.Join(root, "story")
	var out, errb bytes.Buffer
	if code := Run([]string{"run", story, "--json", "--trace", filepath.Join(root, "t.jsonl")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	var res struct {
		State string
		World map[string]any
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if p, _ := res.World["pushed"].(string); res.State != "start" || !strings.HasPrefix(p, "push main from pid ") {
		t.Fatalf("state %q world %v", res.State, res.World)
	}

	if err := os.RemoveAll(filepath.Join(root, ".kitsoki/plugins/gitp")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := Run([]string{"run", story, "--trace", filepath.Join(root, "t2.jsonl")}, &out, &errb); code == 0 {
		t.Fatal("a run with no handler for host.vcsx.push started")
	}
	for _, want := range []string{`"host.vcsx.push"`, "host provider", "--host-cassette"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("refusal lacks %q: %s", want, errb.String())
		}
	}
}
