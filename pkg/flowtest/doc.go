// Package flowtest owns flow fixtures ([File], [Fixture], [Turn]): finding
// and parsing them ([Discover]), running them turn by turn on a virtual
// clock with stubbed host handlers ([Runner]) and reporting each [Result]
// ([WriteText], [NewReport], [WriteJUnit], [WriteGitHub]). It must not reach
// into the engine's internals, the host handlers' implementations or the
// command line: it drives the engine through its session API and leaves
// flags and exit codes to cmd/test.go.
//
// A fixture is a `test_kind: flow` document, found by default under
// <story>/flows/*.yaml (defaultGlob) and parsed with positions. Stubs are
// served as host.Handlers ([Stub.Handler]); [Report] is upstream's JSON
// report shape. The files a fixture names (host_cassette, recording,
// starlark_*_cassette) resolve inside the story's project root
// (confine.go; [Options].Root and Trees): one that leaves it fails the
// fixture at the key, unread.
package flowtest
