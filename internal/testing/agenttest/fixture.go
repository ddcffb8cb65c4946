package agenttest

import (
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// Fixture is a throw-away story directory with schemas/echo.json, a
// Registry over the given declarations and a RecordingSink wired to it.
// The registry is closed when the test ends.
type Fixture struct {
	Dir      string
	Sink     *RecordingSink
	Registry *agent.Registry
}

// NewFixture builds a Fixture. plugins may be nil (only the injected
// agent.claude is declared); opts.StoryDir, opts.Sink and opts.AppID
// default to the fixture's directory, sink and "conformance".
func NewFixture(t testing.TB, plugins map[string]*story.AgentPlugin, opts agent.RegistryOptions) *Fixture {
	t.Helper()
	dir := t.TempDir()
	f := &Fixture{Dir: dir, Sink: &RecordingSink{}}
	f.WriteSchema(referenceSchemaName, referenceSchema)
	if opts.StoryDir == "" {
		opts.StoryDir = dir
	}
	if opts.Sink == nil {
		opts.Sink = f.Sink
	}
	if opts.AppID == "" {
		opts.AppID = "conformance"
	}
	reg, err := agent.NewRegistryFromPlugins(plugins, opts)
	if err != nil {
		t.Fatalf("agenttest: NewRegistry: %v", err)
	}
	t.Cleanup(func() { _ = reg.Close() })
	f.Registry = reg
	return f
}

// WriteSchema writes schemas/<name> and returns its story-relative path.
func (f *Fixture) WriteSchema(name, content string) string {
	p := filepath.Join(f.Dir, "schemas", name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		panic(err)
	}
	return "schemas/" + name
}

// ReferenceCassetteYAML is a cassette answering the reference call for
// ReferenceAlias with ReferenceSubmission (replay: any), app_id
// "conformance".
const ReferenceCassetteYAML = `kind: host_cassette
app_id: conformance
episodes:
  - id: echo_ref
    replay: any
    match: {handler: agent.echo, verb: decide}
    agent:
      verb: decide
      model: cassette-model
      response: '{"echo_prompt_head":"which is the best option for this context?","echo_verb":"decide"}'
`

// WriteCassette writes a cassette file into the fixture directory and loads it.
func (f *Fixture) WriteCassette(t testing.TB, name, content string) *agent.Cassette {
	t.Helper()
	p := filepath.Join(f.Dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := agent.LoadCassette(p)
	if err != nil {
		t.Fatalf("agenttest: LoadCassette: %v", err)
	}
	return c
}
