package flowtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/internal/jsonvalue"
)

// RouteRequest is what a routing harness is asked: the free text typed in
// a state, with the intents that state handles.
type RouteRequest struct {
	State   string
	Input   string
	Allowed []string
	// World is the story's schema-default world.
	World map[string]any
	// Run counts the runs of this input from 0.
	Run int
}

// RouteAnswer is a harness's routing: an intent call, and what it cost.
type RouteAnswer struct {
	Intent  string
	Slots   map[string]any
	CostUSD float64
	// Usage is the backend's token usage, when it reports one.
	Usage map[string]any
}

// Harness maps free text to an intent call (`kitsoki test intents`).
type Harness interface {
	Route(ctx context.Context, req RouteRequest) (*RouteAnswer, error)
}

// ErrRecordingMiss is a static harness that has no entry for an input;
// such runs are skipped, except for expect_failure fixtures, where they
// pass (flow-format.md §8).
var ErrRecordingMiss = errors.New("static harness: no entry")

// StaticHarness answers from a recording, keyed by state and the
// lower-cased, trimmed input; the first entry wins.
type StaticHarness struct {
	entries map[string]*staticEntry
}

// DefaultRecording is the static harness's recording when none is named:
// <story dir>/recording.yaml.
func DefaultRecording(app string) string {
	return filepath.Join(filepath.Dir(app), "recording.yaml")
}

// HasStaticIntents reports whether plain `kitsoki test` measures app's
// routing after its flows: it keeps intent fixtures ([HasIntents]) and a
// default recording. Lstat: a recording linked out of the project counts,
// and is refused unread, whether or not its target exists.
func HasStaticIntents(app string) bool {
	if _, err := os.Lstat(DefaultRecording(app)); err != nil {
		return false
	}
	return HasIntents(app)
}

// NewStaticHarness reads the recording at path through root, the story's
// project root ([StoryRoot]), by upstream's static harness's rules
// (readStaticRecording).
func NewStaticHarness(root, path string) (*StaticHarness, error) {
	entries, err := readStaticRecording(root, path)
	if err != nil {
		return nil, fmt.Errorf("static harness: %v", err)
	}
	h := &StaticHarness{entries: map[string]*staticEntry{}}
	for i := range entries {
		e := &entries[i]
		k := staticKey(e.State, e.Input)
		if _, dup := h.entries[k]; !dup {
			h.entries[k] = e
		}
	}
	return h, nil
}

func staticKey(state, input string) string {
	return state + "\x00" + strings.ToLower(strings.TrimSpace(input))
}

// Route looks the input up.
func (h *StaticHarness) Route(_ context.Context, req RouteRequest) (*RouteAnswer, error) {
	e := h.entries[staticKey(req.State, req.Input)]
	if e == nil {
		return nil, fmt.Errorf("%w for state=%s input=%q", ErrRecordingMiss, req.State, req.Input)
	}
	var slots map[string]any // an entry with no slots: has no slot map
	if e.Slots != nil {
		slots, _ = jsonvalue.Normalize(e.Slots).(map[string]any)
	}
	return &RouteAnswer{Intent: e.Intent, Slots: slots}, nil
}
