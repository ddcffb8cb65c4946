// Package flowtest owns flow fixtures ([File], [Fixture], [Turn]): finding
// and parsing them ([DiscoverUnder]), running them turn by turn on a virtual
// clock with stubbed host handlers ([Runner]) and reporting each [Result]
// ([WriteText], [NewReport], [WriteJUnit], [WriteGitHub]). It drives the
// engine through its session API only and leaves flags and exit codes to
// cmd/test.go.
//
// A [Runner] compiles each story once; each fixture gets its own session,
// world, clock and empty temporary working directory (fixture_setup.go
// builds them, fixture_run.go plays the turns, fixture_check.go checks
// each against its expectations, allowed_at.go
// lists the intents a rejection names as allowed, fixture_finish.go the
// session-level expectations). Every file a
// fixture names resolves inside the story's project root (confine.go), and
// report text goes through internal/termsafe.
//
// [SaveFixture] (save*.go) is `kitsoki run --save-fixture`. Intent
// fixtures (`test_kind: intents`, intents*.go) measure routing through a
// [Harness]. `kitsoki test --update` (update*.go) splices new expectation
// values into a fixture's own bytes ([Runner.Update], [Runner.WriteUpdate]).
package flowtest
