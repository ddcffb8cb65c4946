package flowtest

import (
	"fmt"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/engine"
)

// A legacy-path input: turn is followed on the run as the rig runs it
// (fixtureRun.input): the fixture's recording answers the input at the
// state the run rests at, and the entry's intent is fired with its slots
// as written (no slots: key, or slots: ~, sends null; conformance
// recording-slots-null). Only the fixture's own recording: is read (the
// operator's --recording is not the lint's to know), and a recording
// that does not load, or has no entry there, ends the run: the rig fails
// or skips the fixture on it, which other findings say.

// replayInputTurn reports whether t is an input: turn the run follows:
// input: alone on the legacy path of a fixture naming a recording, with
// no world_override, advance_clock or expect_error.
func (l *fixtureLint) replayInputTurn(t *Turn) bool {
	return t.Intent == nil && t.HasInput && !l.fx.Orchestrated() && l.fx.Recording != "" &&
		len(t.WorldOverride) == 0 && !t.HasAdvance && t.ExpectError == nil
}

// replayInput is the input the run fires for t at state: its intent's
// (slots sent as the rig sends them), or its recording's answer; ok is
// false where the rig has none.
func (l *fixtureLint) replayInput(t *Turn, state string) (engine.Input, bool) {
	if t.Intent != nil {
		return engine.Input{Intent: t.Intent.Name, Slots: intentSlots(t.Intent, !l.fx.Orchestrated(), l.replay.sess.World)}, true
	}
	rec := l.recording()
	if rec == nil {
		return engine.Input{}, false
	}
	e, err := rec.Lookup(state, t.Input)
	if err != nil {
		return engine.Input{}, false
	}
	var sent map[string]any
	if e.Slots != nil {
		sent = jsonvalue.CopyNilAsEmpty(e.Slots).(map[string]any)
	}
	return engine.Input{Intent: e.Intent, Slots: sent}, true
}

// recording is the fixture's recording, read once (nil: it does not
// load), through the root the rig reads it through.
func (l *fixtureLint) recording() *Recording {
	if l.recLoaded {
		return l.rec
	}
	l.recLoaded = true
	fx := l.fx
	root := namedRoot(l.root, fx.File)
	full, err := resolveNamed(root, fx.File, "recording", fx.Recording)
	if err != nil {
		return nil
	}
	r := safefile.NewRoot(root)
	defer r.Close()
	data, err := readIn(r, full)
	if err != nil {
		return nil
	}
	l.rec, _ = parseRecording(full, data)
	return l.rec
}

// firedName names, for a message, the intent the run fired for t: the
// turn's own, or the recording's answer to its input.
func firedName(t *Turn, intent string) string {
	if t.Intent != nil {
		return fmt.Sprintf("the turn's intent %q", intent)
	}
	return fmt.Sprintf("the intent %q the recording answers the turn's input %q with", intent, t.Input)
}

// firedIntent is firedName in a message's opening: intent "go", and the
// input the recording answered with it.
func firedIntent(t *Turn, intent string) string {
	if t.Intent != nil {
		return fmt.Sprintf("intent %q", intent)
	}
	return fmt.Sprintf("intent %q (the recording's answer to the turn's input %q)", intent, t.Input)
}

// firedPos is where a finding on t's fired intent points: its intent:,
// or its input:.
func firedPos(t *Turn) Pos {
	if t.Intent != nil {
		return t.Intent.Pos
	}
	return t.valueAt("input")
}
