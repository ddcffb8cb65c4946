package flowtest

import (
	"os"
	"slices"
)

// httpRecordModes are the values upstream's flow rig takes from
// KITSOKI_HTTP_CASSETTE_RECORD.
var httpRecordModes = []string{"none", "once", "new_episodes", "all"}

// httpCassetteEnv applies KITSOKI_HTTP_CASSETTE_RECORD, which upstream's
// flow rig reads (CI may set it), to the fixture's starlark_http_cassette:
// it replaces the file's record_mode; another value fails the fixture
// with upstream's words (upstream ends the whole run). See
// TestHTTPCassetteRecordEnv.
func (fr *fixtureRun) httpCassetteEnv() bool {
	v := os.Getenv("KITSOKI_HTTP_CASSETTE_RECORD")
	if v == "" {
		return true
	}
	if !slices.Contains(httpRecordModes, v) {
		fr.fatal(fr.fx.at("starlark_http_cassette"), "starlark http cassette: record_mode %q is not supported (want none|once|new_episodes|all) (KITSOKI_HTTP_CASSETTE_RECORD)", v)
		return false
	}
	if err := fr.star.HTTPCassette.SetRecordMode(v); err != nil {
		fr.fatal(fr.fx.at("starlark_http_cassette"), "%v", err)
		return false
	}
	return true
}

// flushHTTPCassette writes a recording starlark_http_cassette back to its
// file once the fixture has run, as upstream's rig does at teardown; a
// write that fails fails the fixture.
func (fr *fixtureRun) flushHTTPCassette() {
	c := fr.star.HTTPCassette
	if !c.Recording() {
		return
	}
	if err := c.Flush(); err != nil {
		fr.res.Failures = append(fr.res.Failures, Failure{Turn: -1, Pos: fr.fx.at("starlark_http_cassette"), Message: err.Error()})
		fr.res.Flow.Passed = false
	}
}
