package flowtest

import (
	"fmt"
	"kitsoki/internal/yamlnode"
	"path/filepath"
	"slices"
	"time"
)

// Pos is a place in a fixture file (1-based line and column).
type Pos = yamlnode.Pos

// KV is one key of a mapping the fixture lists, in file order.
type KV struct {
	Key   string
	Value any
	Pos   Pos
}

// Fixture is one flow document (a file may hold several).
type Fixture struct {
	File  string // the path as discovered (report File)
	Doc   int    // 1-based index among the file's flow documents
	Docs  int    // number of flow documents in the file
	Pos   Pos    // start of the document
	Story string // the app.yaml this fixture runs against

	App                     string
	InitialState            string
	InitialWorld            []KV
	Turns                   []*Turn
	ExpectNoErrors          *bool
	ExpectTerminal          *bool
	HostHandlers            []*Stub
	HostCassette            string
	StarlarkHTTPCassette    string
	StarlarkInspectCassette string
	HostBindings            []KV // iface -> handler (string values)
	ExpectNoHostCalls       []string
	Recording               string
	UseOrchestrator         *bool
	Mode                    string
	StrictCassetteCoverage  bool
	ExpectEventsAtLeast     *int
	ExpectEventsAtMost      *int
	ExpectWorldFinal        []KV
	ExpectFiles             []FileExpect

	// keys is where each top-level key and its value are.
	keys keyList
}

// Name is the fixture's display name: the file, plus "#N" when the file
// holds several flow documents.
func (f *Fixture) Name() string {
	if f.Docs > 1 {
		return fmt.Sprintf("%s#%d", f.File, f.Doc)
	}
	return f.File
}

// at is where a top-level key is (else the document); valueAt its value.
func (f *Fixture) at(key string) Pos      { return f.keys.pos(key, false, f.Pos) }
func (f *Fixture) valueAt(key string) Pos { return f.keys.pos(key, true, f.Pos) }

// rel is p, a path the fixture names, against the fixture's directory.
func (f *Fixture) rel(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(f.File), p)
}

// namedFile is a key of the fixture that names a file, and the path it names.
type namedFile struct{ key, path string }

// cassettes are the fixture's cassette keys, set or not.
func (f *Fixture) cassettes() []namedFile {
	return []namedFile{{"host_cassette", f.HostCassette}, {"starlark_http_cassette", f.StarlarkHTTPCassette}, {"starlark_inspect_cassette", f.StarlarkInspectCassette}}
}

// opensRecording reports whether upstream opens the fixture's recording:
// always on the legacy path, on the orchestrator path only for a turn that
// input: alone drives (conformance fixture-empty-drivers).
func (f *Fixture) opensRecording() bool {
	return !f.Orchestrated() || slices.ContainsFunc(f.Turns, func(t *Turn) bool { return t.Intent == nil && t.HasInput })
}

// firesIntent reports whether a turn of the fixture fires an intent (named,
// or routed from input:); the others only advance the clock.
func (f *Fixture) firesIntent() bool {
	return slices.ContainsFunc(f.Turns, func(t *Turn) bool { return t.Intent != nil || t.HasInput })
}

// Orchestrated reports whether upstream runs this document on its
// orchestrator path, not the legacy machine path (flow-format.md §1.3).
func (f *Fixture) Orchestrated() bool {
	if f.UseOrchestrator != nil {
		return *f.UseOrchestrator
	}
	if len(f.HostHandlers) > 0 || f.HostCassette != "" || f.StarlarkHTTPCassette != "" {
		return true
	}
	return slices.ContainsFunc(f.Turns, func(t *Turn) bool { return t.HasAdvance || t.ExpectInbox != nil || len(t.ExpectJobs) > 0 })
}

// Turn is one entry of turns:.
type Turn struct {
	Index int // 0-based
	Pos   Pos

	Intent        *IntentSpec
	Input         string
	HasInput      bool
	AdvanceClock  time.Duration
	AdvanceRaw    string
	HasAdvance    bool
	DisplayInput  string
	WorldOverride []KV

	ExpectState          *string
	ExpectNotState       *string
	ExpectStateIn        []string
	ExpectWorld          []KV
	ExpectWorldFull      []KV
	HasWorldFull         bool
	ExpectWorldUnchanged bool
	ExpectSlots          []KV
	ExpectEvents         []EventExpect
	ExpectEventsExact    []EventExpect
	HasEventsExact       bool
	ExpectError          *ErrorExpect
	ExpectViewMatches    *string
	ExpectNoView         bool
	ExpectHostCalls      []HostCallExpect
	ExpectNoHostCalls    []string
	ExpectInbox          *InboxExpect
	ExpectJobs           []JobExpect

	// keys is where each of the turn's keys and its value are.
	keys keyList
}

// at is where a turn key is (else the turn); valueAt its value.
func (t *Turn) at(key string) Pos      { return t.keys.pos(key, false, t.Pos) }
func (t *Turn) valueAt(key string) Pos { return t.keys.pos(key, true, t.Pos) }

// IntentSpec is a turn's intent: {name, slots}.
type IntentSpec struct {
	Name  string
	Slots []KV
	Pos   Pos
	// Bare: written as a bare name (intent: go), which upstream refuses.
	Bare bool
}

// EventExpect is one expect_events entry.
type EventExpect struct {
	Kind   string
	From   string
	To     string
	Effect []KV
	Pos    Pos
}

// ErrorExpect is expect_error.
type ErrorExpect struct {
	Code            string
	AllowedContains []string
	MissingSlots    []string
	GuardHint       string
	Pos             Pos
}

// HostCallExpect is one expect_host_calls entry.
type HostCallExpect struct {
	Handler string
	Args    []KV
	Times   *int
	Pos     Pos
}

// InboxExpect is expect_inbox.
type InboxExpect struct {
	Unread         *int
	NeedsAttention *int
	Severities     []string
	Pos            Pos
}

// JobExpect is one expect_jobs entry.
type JobExpect struct {
	Namespace string
	Status    string
	Pos       Pos
}

// FileExpect is one expect_files entry.
type FileExpect struct {
	Path           string
	ContentMatches string
	MustNotExist   bool
	Pos            Pos
}

// Stub is one host_handlers entry.
type Stub struct {
	Name                 string
	Data                 map[string]any
	Error                string
	InfraError           string
	Delay                time.Duration
	DelayErr             string // a delay that does not parse: each call's infra error
	RequestClarification string
	ByCall               map[string]*Envelope
	ByOp                 map[string]*Envelope
	Pos                  Pos
}

// Envelope is a by_call / by_op answer.
type Envelope struct {
	Data       map[string]any
	Error      string
	InfraError string
	Pos        Pos
}
