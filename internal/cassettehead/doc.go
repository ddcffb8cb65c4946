// Package cassettehead owns the top-level keys of a host_cassette file
// ([Header]: kind, app_id, record_mode, phase_from) and the checks and
// messages both of kitsoki's cassette readers share (pkg/agent's Cassette
// and pkg/compose's HostCassette), and the one agent key both read alike:
// the exact submission of response_json: ([ResponseJSON]). It must not
// read files or decode the rest of an episode: what an episode holds and
// how it is matched stay with each reader.
package cassettehead
