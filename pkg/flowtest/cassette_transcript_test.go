package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An agent: block's transcript in a host cassette reaches the --trace-dir
// trace as upstream writes it: on agent.call.complete the events go to
// transcripts/<call_id>.jsonl (one per line, a mapping compacted, a
// string as written), their
// timings to <call_id>.timings, and the payload carries transcript_ref;
// an episode whose agent block fails (agent.call.error) writes none.
// CopyLastTrace (--trace-out) copies the files beside its trace.
func TestCassetteAgentTranscriptInTrace(t *testing.T) {
	td := t.TempDir()
	cassette := `kind: host_cassette
app_id: rig
episodes:
  - id: judged
    match: { handler: host.agent.decide }
    response: { data: { count: 2 } }
    agent:
      verb: decide
      response: '{"count":2}'
      transcript:
        format: claude-stream-json
        events: ['{"type": "system"}', '  [1,  2] ', { type: result }]
        timings: [7]
`
	rs := runFlow(t, `test_kind: flow
initial_state: a
host_cassette: c.cassette.yaml
turns:
  - intent: { name: judge }
    expect_world: { n: 2 }
`, map[string]string{"c.cassette.yaml": cassette}, Options{TraceDir: td})
	wantPass(t, rs[0])
	data, err := os.ReadFile(rs[0].Trace)
	if err != nil {
		t.Fatal(err)
	}
	var complete string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, `"agent.call.complete"`) {
			complete = line
		}
	}
	const ref = `"transcript_ref":{"format":"claude-stream-json","path":"transcripts/`
	if !strings.Contains(complete, ref) || !strings.Contains(complete, `"events":3,"schema_version":1}`) {
		t.Fatalf("agent.call.complete without transcript_ref: %s", complete)
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(rs[0].Trace), "transcripts", "*"))
	if len(files) != 2 {
		t.Fatalf("transcript files %q, want one .jsonl and one .timings", files)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		// a string event byte for byte, a mapping compacted: upstream's
		// (probed with the existing engine in hunt108, three runs)
		want := "{\"type\": \"system\"}\n  [1,  2] \n{\"type\":\"result\"}\n"
		if strings.HasSuffix(f, ".timings") {
			want = "0 7\n1 0\n2 0\n"
		}
		if string(b) != want {
			t.Errorf("%s = %q, want %q", filepath.Base(f), b, want)
		}
		// --trace-out copies them beside its file, as upstream writes them
		out := filepath.Join(t.TempDir(), "out.jsonl")
		if err := CopyLastTrace(rs, "", out); err != nil {
			t.Fatal(err)
		}
		c, err := os.ReadFile(filepath.Join(filepath.Dir(out), "transcripts", filepath.Base(f)))
		if err != nil || string(c) != want {
			t.Errorf("--trace-out's %s = %q, %v; want %q", filepath.Base(f), c, err, want)
		}
	}

	td = t.TempDir()
	rs = runFlow(t, `test_kind: flow
initial_state: a
host_cassette: c.cassette.yaml
turns:
  - intent: { name: judge }
`, map[string]string{"c.cassette.yaml": `kind: host_cassette
episodes:
  - id: failed
    match: { handler: host.agent.decide }
    response: { error: abandoned }
    agent:
      error: no submit
      transcript: { format: f, events: ['{"a":1}'] }
`}, Options{TraceDir: td})
	wantPass(t, rs[0])
	data, _ = os.ReadFile(rs[0].Trace)
	if !strings.Contains(string(data), `"agent.call.error"`) || strings.Contains(string(data), "transcript") {
		t.Errorf("agent.call.error trace: %s", data)
	}
	if _, err := os.Stat(filepath.Join(td, "transcripts")); !os.IsNotExist(err) {
		t.Errorf("an error wrote transcripts/: %v", err)
	}
}
