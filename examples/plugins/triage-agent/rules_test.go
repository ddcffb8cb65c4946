package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kitsoki/pkg/pluginkit"
)

func TestTriageRules(t *testing.T) {
	cases := []struct{ prompt, action, category string }{
		{"exit code: 1\n--- FAIL: TestParse (0.00s)\n--- FAIL: TestParse (0.00s)", "fix", "test"},
		{"exit code: 2\n./x.go:3:2: undefined: foo", "fix", "build"},
		{"exit code: 1\ndial tcp 127.0.0.1:5432: connect: connection refused", "escalate", "infrastructure"},
		{"exit code: 1\npanic: test timed out after 10m0s", "retry", "flaky"},
		{"exit code: 0\nok", "none", "green"},
		{"exit code: 3\nsomething odd", "escalate", "unknown"},
	}
	for _, c := range cases {
		got := triage(c.prompt)
		if got["action"] != c.action || got["category"] != c.category {
			t.Errorf("triage(%q) = %v/%v, want %s/%s", c.prompt, got["action"], got["category"], c.action, c.category)
		}
	}
	if tests := triage(cases[0].prompt)["failing_tests"].([]string); len(tests) != 1 || tests[0] != "TestParse" {
		t.Errorf("failing tests = %v, want [TestParse] (deduplicated)", tests)
	}
}

func TestServeProtocol(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"agent.ask","params":{"verb":"extract","prompt":"ALERT sev 1 service=payments down"}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"nope","params":{}}` + "\n")
	var out bytes.Buffer
	if err := pluginkit.ServeIO(context.Background(), in, &out, answer); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one reply line per request, got %q", out.String())
	}
	var r1 struct {
		ID     int `json:"id"`
		Result struct {
			Submission map[string]any `json:"submission"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &r1); err != nil {
		t.Fatal(err)
	}
	if r1.ID != 1 || r1.Result.Submission["severity"] != float64(1) || r1.Result.Submission["service"] != "payments" {
		t.Errorf("reply 1 = %s", lines[0])
	}
	if !strings.Contains(lines[1], `"code":-32601`) || !strings.Contains(lines[1], `"id":2`) {
		t.Errorf("reply 2 = %s, want method-not-found error echoing id 2", lines[1])
	}
}
