// Package flowtest owns flow fixtures ([File], [Fixture], [Turn]): finding
// and parsing them ([Discover]), running them turn by turn on a virtual
// clock with stubbed host handlers ([Runner]) and reporting each [Result]
// ([WriteText], [NewReport], [WriteJUnit], [WriteGitHub]). It must not reach
// into the engine's internals, the host handlers' implementations or the
// command line: it drives the engine through its session API and leaves
// flags and exit codes to cmd/test.go.
//
// In full, it owns flow fixtures (`<story>/flows/*.yaml`, `test_kind:
// flow`): parsing them with positions, stubbing host handlers, driving an
// engine session turn by turn on a virtual clock, comparing what happened
// with what the fixture expects, and writing the reports (text, the
// upstream JSON shape, JUnit, GitHub annotations).
//
// It must not reach into the engine's internals, the host handlers'
// implementations or the command line: it drives the engine through its
// session API, serves stubs as host.Handlers, and leaves flag parsing and
// exit codes to cmd/test.go.
package flowtest
