package compose

import "fmt"

// FlowRecordMode applies upstream's flow-rig environment to a flow
// fixture's host cassette (trace-eval.md §B.2): record, from
// KITSOKI_CASSETTE_RECORD when set, replaces the file's record_mode (none
// or new_episodes, anything else refused); strict, from
// KITSOKI_CASSETTE_STRICT=1|true, refuses any mode but none. The errors
// are upstream's words.
func (hc *HostCassette) FlowRecordMode(record string, strict bool) error {
	mode := hc.c.RecordMode
	if record != "" {
		if record != "none" && record != "new_episodes" {
			return fmt.Errorf("record_mode %q is not supported; valid values are \"none\" or \"new_episodes\" (KITSOKI_CASSETTE_RECORD)", record)
		}
		mode = record
	}
	if strict && mode != "" && mode != "none" {
		return fmt.Errorf("KITSOKI_CASSETTE_STRICT=1 but cassette record mode is %q", mode)
	}
	hc.c.RecordMode = mode
	hc.recording = mode == "new_episodes"
	return nil
}
