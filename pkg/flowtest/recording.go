package flowtest

import (
	"fmt"
	"strings"
	"sync"

	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
)

// Recording maps free text typed in a state to an intent (`kind:
// recording`, flow-format.md §6.6), for `input:` turns.
type Recording struct {
	Path    string
	Entries []RecordingEntry

	// index is Entries' first position for each (state, input), as
	// written and folded: built once, on the first Lookup (a recording is
	// shared by the fixtures that name it, run in parallel).
	once  sync.Once
	exact map[recordingKey]int
	fold  map[recordingKey]int
}

// recordingKey is an entry's (state, input).
type recordingKey struct{ state, input string }

// foldKey is (state, input) lower-cased and trimmed, Lookup's second try.
func foldKey(state, input string) recordingKey {
	return recordingKey{strings.ToLower(strings.TrimSpace(state)), strings.ToLower(strings.TrimSpace(input))}
}

// RecordingEntry is one recorded routing.
type RecordingEntry struct {
	State   string
	Input   string
	Intent  string
	Slots   map[string]any
	Clarify bool
}

// recordingReadErr words err, reading the recording at path.
func recordingReadErr(path string, err error) error {
	return fmt.Errorf("recording %q: %v", path, strings.TrimPrefix(err.Error(), "cannot read the fixture: "))
}

// readRecordingIn reads a recording's bytes through root (globRoot's
// rule): a symlink on the way leading out of it is refused unread.
func readRecordingIn(root, path string) ([]byte, error) {
	r := safefile.NewRoot(globRoot(root, path))
	defer r.Close()
	data, err := readIn(r, path)
	if err != nil {
		return nil, recordingReadErr(path, confinedErr(r, "recording", path, err))
	}
	return data, nil
}

// parseRecording parses a recording's bytes (path names it in errors) by a
// flow replay's rules.
func parseRecording(path string, data []byte) (*Recording, error) {
	raw, rerr := decodeRecording(data, entryTexts)
	if rerr != nil {
		return nil, fmt.Errorf("recording %q: %v", path, rerr)
	}
	if raw.Kind != "recording" {
		return nil, fmt.Errorf("recording %q has unexpected kind %q (want \"recording\")", path, raw.Kind)
	}
	if len(raw.Entries) == 0 {
		return nil, fmt.Errorf("recording %q has no entries", path)
	}
	r := &Recording{Path: path}
	for i, e := range raw.Entries {
		var clarify bool
		if e.Clarify.Kind != 0 {
			if err := e.Clarify.Decode(&clarify); err != nil {
				line, msg := decodeErrLine(err)
				return nil, fmt.Errorf("recording %q: line %d: entries[%d].clarify: %s", path, line, i, msg)
			}
		}
		switch {
		case e.State == "":
			return nil, fmt.Errorf("recording %q: entry %d has empty state", path, i)
		case e.Input == "":
			return nil, fmt.Errorf("recording %q: entry %d has empty input", path, i)
		case e.Intent.Name == "" && !clarify:
			return nil, fmt.Errorf("recording %q: entry %d has empty intent name (set intent.name, or clarify:true for a deterministic no-match)", path, i)
		case e.Intent.Name != "" && clarify:
			return nil, fmt.Errorf("recording %q: entry %d sets clarify:true and intent.name=%s (a clarify entry must omit intent)", path, i, termsafe.Line(e.Intent.Name))
		}
		r.Entries = append(r.Entries, RecordingEntry{State: e.State, Input: e.Input, Intent: e.Intent.Name, Slots: e.Intent.Slots, Clarify: clarify})
	}
	return r, nil
}

// Lookup finds the entry for (state, input): exact first, then both
// lower-cased and trimmed; the first entry in file order wins. Each try is
// one map read (the index), so a long fixture on a large recording costs
// its turns, not turns times entries.
func (r *Recording) Lookup(state, input string) (*RecordingEntry, error) {
	r.once.Do(r.buildIndex)
	i, ok := r.exact[recordingKey{state, input}]
	if !ok {
		i, ok = r.fold[foldKey(state, input)]
	}
	if !ok {
		return nil, fmt.Errorf("recording miss for input %q in state %q (%s has no entry for it; add {state: %s, input: %q, intent: {name: ...}})", input, state, r.Path, state, input)
	}
	if e := &r.Entries[i]; !e.Clarify {
		return e, nil
	}
	return nil, fmt.Errorf("recording %s routes input %q in state %q to a clarification, not an intent", r.Path, input, state)
}

// buildIndex files each entry under its exact and folded keys, the first
// in file order kept.
func (r *Recording) buildIndex() {
	r.exact = make(map[recordingKey]int, len(r.Entries))
	r.fold = make(map[recordingKey]int, len(r.Entries))
	for i, e := range r.Entries {
		if k := (recordingKey{e.State, e.Input}); !has(r.exact, k) {
			r.exact[k] = i
		}
		if k := foldKey(e.State, e.Input); !has(r.fold, k) {
			r.fold[k] = i
		}
	}
}

// has reports whether m holds k.
func has(m map[recordingKey]int, k recordingKey) bool {
	_, ok := m[k]
	return ok
}
