package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
)

// start places the machine and, with Bootstrap, runs turn 0.
func (r *runner) start(ctx context.Context) error {
	spec := cmp.Or(r.so.StartState, r.m.Root)
	if spec == r.m.Root && !strings.Contains(spec, "#") && r.m.States[spec] == nil {
		return fmt.Errorf("root state %q does not exist", r.m.Root)
	}
	if !r.so.Bootstrap {
		if err := r.placeAt(spec); err != nil {
			return err
		}
		r.reachPlaced()
		// the flow rig journals its initial world: it replays like any set
		for _, k := range slices.AppendSeq(slices.Clone(r.so.Seeded), maps.Keys(r.overrides())) {
			r.noteWritten(map[string]any{"set": map[string]any{k: nil}})
		}
		r.turnState = r.statePath()
		if !r.so.UnarmedStart {
			r.arm()
		}
		return nil
	}
	root := r.m.States[spec]
	if root == nil {
		return fmt.Errorf("start state %q does not exist", spec)
	}
	r.turnState = root.Path
	r.phaseState = root.Path
	// the snapshot and overrides first, so the trace alone rebuilds the run
	if r.m.Dir != "" && !r.so.NoSnapshot {
		snap, err := storySnapshot(r.m.AppID, r.m.Dir, r.m.Entry)
		if err != nil {
			return fmt.Errorf("session.story: %w", err)
		}
		if err := r.emitAt("", KindSessionStory, snap); err != nil {
			return err
		}
	}
	if over := r.overrides(); len(over) > 0 {
		if err := r.emitAt("", KindWorldUpdate, map[string]any{"set": over, "source": "overrides"}); err != nil {
			return err
		}
	}
	var st step // the on_enter chain from the top down to the start leaf
	if err := r.enterFrom(ctx, nil, root, &st); err != nil {
		return err
	}
	if err := r.settle(ctx, &st); err != nil {
		return err
	}
	if err := r.postBind(ctx); err != nil {
		return err
	}
	r.arm()
	return nil
}

// overrides returns the world keys whose initial value differs from the
// story default (--world, --world-file, session_id).
func (r *runner) overrides() map[string]any {
	def, _ := InitWorld(r.m.World, nil, nil)
	seedIDE(def) // seeded, never journaled
	out := map[string]any{}
	for k, v := range r.world {
		d, ok := def[k]
		if ok && sameJSON(d, v) {
			continue
		}
		out[k] = jsonvalue.Normalize(v)
	}
	return out
}

// sameJSON reports whether a and b encode alike; values JSON cannot hold
// (a default of .nan or .inf) compare by their Go syntax, so such a
// default left as it is no override (conformance yaml-non-finite).
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
	}
	return string(ja) == string(jb)
}
