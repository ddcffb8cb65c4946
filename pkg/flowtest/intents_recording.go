package flowtest

import (
	"fmt"
)

// staticEntry is one entry of a routing recording as the static harness
// reads it.
type staticEntry struct {
	State, Input, Intent string
	Slots                map[string]any
}

// readStaticRecording reads the recording of `--harness static` through
// root by the static harness's own rules, not a flow replay's
// (intents-conformance/static-recording).
func readStaticRecording(root, path string) ([]staticEntry, error) {
	data, err := readRecordingIn(root, path)
	if err != nil {
		return nil, err
	}
	raw, rerr := decodeRecording(data, nil)
	if rerr != nil {
		if rerr.col > 0 {
			return nil, fmt.Errorf("recording %q:%d:%d: %s", path, rerr.line, rerr.col, rerr.msg)
		}
		return nil, fmt.Errorf("recording %q:%d: %s", path, max(rerr.line, 1), rerr.msg)
	}
	if raw.Kind != "recording" {
		return nil, fmt.Errorf("recording %q has unexpected kind %q (want \"recording\")", path, raw.Kind)
	}
	out := make([]staticEntry, 0, len(raw.Entries))
	for i, e := range raw.Entries {
		if e.State == "" || e.Input == "" || e.Intent.Name == "" {
			return nil, fmt.Errorf("recording %q: entry %d is incomplete (state=%q input=%q intent=%q); a routing recording needs state, input and intent.name on every entry (a clarify: entry names no intent)",
				path, i, e.State, e.Input, e.Intent.Name)
		}
		out = append(out, staticEntry{State: e.State, Input: e.Input, Intent: e.Intent.Name, Slots: e.Intent.Slots})
	}
	return out, nil
}
