// Package flowtest owns flow fixtures ([File], [Fixture], [Turn]): finding
// and parsing them ([Discover]), running them turn by turn on a virtual
// clock with stubbed host handlers ([Runner]) and reporting each [Result]
// ([WriteText], [NewReport], [WriteJUnit], [WriteGitHub]). It drives the
// engine through its session API only (no engine internals, no host
// handler implementations) and leaves flags and exit codes to cmd/test.go.
//
// A [Runner] loads, folds and compiles each story once ([Runner.Story],
// [Runner.Preload]); its fixtures (and a plain `kitsoki test`'s intents)
// share that machine, each fixture with its own session, world, clock and
// empty temporary working directory (reused: workdir_pool.go), reading the
// cassettes and recordings it names itself. A fixture is a `test_kind: flow` document (by default
// <story>/flows/*.yaml), parsed with positions; stubs are served as
// host.Handlers ([Stub.Handler]); [Report] is upstream's JSON report
// shape. handlers.go registers a host_bindings fixture's real built-ins as
// the operator allows (the profile's refusals; under [Options].Sandbox only
// host.SandboxSafe ones, any other call failing the fixture). The text and
// GitHub reports print every string through internal/termsafe. The files a
// fixture names resolve inside the story's project root (confine.go): one
// that leaves it fails the fixture at the key, unread.
//
// [SaveFixture] (save*.go) is `kitsoki run --save-fixture`: a finished
// run, recorded through a [SaveRecorder] sink, written as a fixture whose
// expectations are read from this package's own rig (two runs; only
// values both reach are asserted) and which passes a third run before it
// is written, atomically, inside the story's project root.
//
// Intent fixtures (`test_kind: intents`, intents*.go) measure routing:
// [LoadIntents] reads them, [RunIntents] asks a [Harness] ([StaticHarness]
// from recording.yaml, [AgentHarness] through an agent plugin of the
// story) runs times per input and judges each answer with
// [engine.Machine.CheckIntent]; [IntentReport] is upstream's `test intents
// --json` shape, with [Baseline] regressions and JUnit.
//
// `kitsoki test --update` (update*.go): with [Options].Observe a run keeps
// what each turn showed; [Runner.Update] plans the rewrite of the failing
// expectations (a fixture failing for another reason, or at a value from
// an anchor, merge key or template, is a [Refusal]), splicing each new
// value into the file's bytes at its yaml.v3 node (update_span.go finds
// the byte span, update_splice.go writes the value in its old style and
// checks the file reads back as intended), runs the updated fixtures
// again, and [Runner.WriteUpdate] replaces the files atomically inside the
// project root. It never re-marshals a document, adds an assertion or
// removes a turn.
package flowtest
