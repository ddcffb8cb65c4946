package flowtest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"kitsoki/pkg/flowtest"
)

// A fixture beside a story (flows/*.yaml) is discovered, run on a virtual
// clock and reported, as kitsoki test does; a failing assertion names the
// turn and what it saw.
func ExampleNewRunner() {
	dir, err := os.MkdirTemp("", "flowtest-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"app.yaml": `app: { id: door, version: 0.1.0 }
intents:
  open: {}
root: closed
states:
  closed:
    on:
      open: [ { target: opened } ]
  opened: { terminal: true }
`,
		"flows/open.yaml": `test_kind: flow
initial_state: closed
turns:
  - intent: { name: open }
    expect_state: opened
expect_terminal: true
`,
		"flows/wrong.yaml": `test_kind: flow
initial_state: closed
turns:
  - intent: { name: open }
    expect_state: closed
`,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fmt.Println(err)
			return
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			fmt.Println(err)
			return
		}
	}

	found, findings, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, "", false, nil)
	if err != nil || len(findings) > 0 {
		fmt.Println(err, findings)
		return
	}
	for _, r := range flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), found) {
		fmt.Println(filepath.Base(r.Name), "passed:", r.Passed())
		for _, f := range r.Failures {
			fmt.Println("  ", f.Message)
		}
	}
	// Output:
	// open.yaml passed: true
	// wrong.yaml passed: false
	//    expect_state: got "opened", want "closed"
}
