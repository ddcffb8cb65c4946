package engine

import (
	"context"
	"errors"
	"strings"
)

// encodedLanding is the path an on_error target names when its "../"
// climbed from a parallel configuration's encoded path (dispatchBase) to
// a path the story does not hold that still names a parallel root
// (root#...), and that root; not in a job's on_complete chain, which
// climbs from its origin.
func (r *runner) encodedLanding(err error) (string, *State, bool) {
	ue, ok := errors.AsType[*unknownTargetError](err)
	if !ok || r.t.chainOrigin != "" {
		return "", nil, false
	}
	root, _, enc := strings.Cut(ue.path, "#")
	if p := r.m.States[root]; enc && p != nil && p.Parallel {
		return ue.path, p, true
	}
	return "", nil, false
}

// takeEncoded takes such a redirect as upstream does: it lands on the path
// as written, flat (one state_exited and one state_entered of the whole
// paths), running the root's own on_enter there, and the machine then
// rests on the path as a flow starting there would (placeParallel, flat),
// so the next turn reads it so. A redirect to that resting path moves
// nothing but is a redirect. Conformance on-error-climb-parallel. The
// legacy path never gets here: upstream's legacy rig takes no such
// redirect (on-error-climb-parallel top-legacy; probed too from a root
// arc's effect and the root's on_enter, with two entries of one region),
// so the sorted read it would ask for is never seen.
func (r *runner) takeEncoded(ctx context.Context, path string, root *State, rd *redirect, st *step, c *redirectChain) (done bool, err error) {
	from := r.statePath()
	r.markRedirect(rd)
	if path == from {
		return true, r.unwindRedirects(append(c.nested, from), path)
	}
	at := &State{Path: path, Name: path, OnEnter: root.OnEnter, Pos: root.Pos}
	if done, err = r.landInChain(ctx, target{state: at}, from, rd, st, c); done || err != nil || r.cur != at {
		return done, err
	}
	_, leaves, _ := strings.Cut(path, "#")
	return false, r.placeParallel(path, root.Path, leaves, true, r.so.MachineOnly)
}
