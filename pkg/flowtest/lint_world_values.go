package flowtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// worldValues warns at an expect_world (or expect_world_final) value
// the key can never hold, whatever path the fixture takes: every value
// the story and the fixture ever give the key is known (its start value:
// the world: default, the rig's seed, initial_world; each world_override
// of the fixture; each set: of a literal value anywhere in the folded
// story, an imported child's world_in and exit set: included), and none
// of them equals it, as the runner compares, nor prints as it does (so a
// conversion on the way cannot make it equal). A key a bind, an
// increment, a templated or guarded-path set:, a selection or the engine
// may write is not judged, nor an expected null, nor a dotted key.
func (l *fixtureLint) worldValues() {
	vals := l.ix.literalWrites()
	if vals == nil {
		return
	}
	judge := func(label string, kv KV) {
		if strings.Contains(kv.Key, ".") || kv.Value == nil || hasTemplate(kv.Value) {
			return
		}
		cands, ok := l.worldCandidates(vals, kv.Key)
		if !ok {
			return
		}
		want := jsonvalue.Normalize(kv.Value)
		for _, c := range cands {
			if c.v == jobIDValue {
				continue // equals no literal
			}
			if worldEqual(c.v, want) || fmt.Sprint(c.v) == fmt.Sprint(want) {
				return
			}
		}
		l.warn(kv.Pos, ruleWorldNever, "%s[%q]: %s, but no path gives %q that value: the story and the fixture only ever set it to %s: the assertion fails on both engines; expect one of them, or fix the set: that should write it%s",
			label, kv.Key, clip(show(kv.Value)), kv.Key, candidateList(cands), l.ix.worldHint(kv.Key))
	}
	for _, t := range l.fx.Turns {
		if t.ExpectError != nil {
			continue // not checked (flow-not-checked)
		}
		for _, kv := range t.ExpectWorld {
			judge(fmt.Sprintf("turns[%d].expect_world", t.Index), kv)
		}
	}
	for _, kv := range l.fx.ExpectWorldFinal {
		judge("expect_world_final", kv)
	}
}

// worldValue is one value a key may hold, and where it comes from.
type worldValue struct {
	v     any
	where string
	// ref: a set: of {{ world.ref }} (or {{ world.ref ?? alt }}) copies
	// the key ref holds (worldCandidates resolves it)
	ref    string
	alt    any
	hasAlt bool
}

// jobIDValue marks a background job's id, bound (bind: {k: job_id}) or
// the engine's last_job_id: a new random id on each run, which no
// literal of a fixture equals (conformance job-id-values).
var jobIDValue = new(int)

// copyRead matches a set: value that copies one world key as it is, or a
// text literal where the key is null.
var copyRead = &lazyre.Regexp{Expr: `^\{\{\s*world\.([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?\?\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*)?\}\}$`}

// maxCopyDepth bounds the chain of copies worldCandidates follows.
const maxCopyDepth = 4

func candidateList(cs []worldValue) string {
	var b strings.Builder
	for i, c := range cs {
		if c.v == jobIDValue {
			c.v = "a background job's id (new each run)"
		}
		if i == 6 {
			fmt.Fprintf(&b, " … %d more", len(cs)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s)", clip(show(c.v)), c.where)
	}
	return b.String()
}

// worldCandidates is every value key may hold in the fixture's run: its
// start value, the fixture's world_override values and the story's
// literal sets; false when some of them is not certain.
func (l *fixtureLint) worldCandidates(vals map[string][]worldValue, key string) ([]worldValue, bool) {
	return l.worldCandidatesAt(vals, key, 0)
}

// worldCandidatesAt is worldCandidates depth copies deep: a copy of
// another key's value (ref) stands for each value that key may hold.
// last_job_id, the engine's own, holds job ids besides its start value
// and what the story writes there.
func (l *fixtureLint) worldCandidatesAt(vals map[string][]worldValue, key string, depth int) ([]worldValue, bool) {
	if depth > maxCopyDepth || slices.Contains(story.InjectedWorld(), key) && key != story.WorldLastJobID {
		return nil, false
	}
	vals = maps.Clone(vals)
	var copies []worldValue
	for _, c := range vals[key] {
		if c.ref == "" {
			continue
		}
		from, ok := l.worldCandidatesAt(vals, c.ref, depth+1)
		if !ok {
			return nil, false
		}
		for _, f := range from {
			copies = append(copies, worldValue{v: f.v, where: fmt.Sprintf("%s, copying world.%s: %s", c.where, c.ref, f.where)})
		}
		if c.hasAlt && slices.ContainsFunc(from, func(f worldValue) bool { return f.v == nil }) {
			copies = append(copies, worldValue{v: c.alt, where: c.where}) // ?? reads null alone
		}
	}
	vals[key] = append(slices.DeleteFunc(slices.Clone(vals[key]), func(c worldValue) bool { return c.ref != "" }), copies...)
	if key == story.WorldLastJobID {
		vals[key] = append(vals[key], worldValue{v: jobIDValue, where: "a background job's submission"})
	}
	sets, ok := vals[key]
	if written, all := l.ix.writes(true); !ok && (all || written[key]) {
		return nil, false // written, but by nothing literalWrites follows
	}
	if slices.ContainsFunc(sets, func(c worldValue) bool { return c.v == unknownValue }) {
		return nil, false
	}
	start := engine.StoryWorld(l.ix.story)
	seedRig(start)
	from := "its start value"
	for _, kv := range l.fx.InitialWorld {
		if kv.Key == key {
			if hasTemplate(kv.Value) {
				return nil, false
			}
			start[key] = jsonvalue.Normalize(jsonvalue.CopyNilAsEmpty(kv.Value))
			from = "initial_world"
		}
	}
	out := []worldValue{{v: start[key], where: from}}
	for _, t := range l.fx.Turns {
		for _, kv := range t.WorldOverride {
			first, _, _ := strings.Cut(kv.Key, ".")
			if first != key {
				continue
			}
			if first != kv.Key || hasTemplate(kv.Value) {
				return nil, false
			}
			out = append(out, worldValue{v: jsonvalue.Normalize(kv.Value), where: fmt.Sprintf("turns[%d].world_override", t.Index)})
		}
	}
	return append(out, sets...), true
}

// unknownValue marks a write literalWrites cannot follow.
var unknownValue = new(int)

// literalWrites is, by top-level world key, every value an effect of the
// folded story sets it to (unknownValue for a write that is not a
// literal set:); nil when any key may be written (a templated key, a
// selection, phases, proposals, an unfolded story).
func (ix *storyIndex) literalWrites() map[string][]worldValue {
	if !ix.litDone {
		ix.lit, ix.litDone = ix.findLiteralWrites(), true
	}
	return ix.lit
}

func (ix *storyIndex) findLiteralWrites() map[string][]worldValue {
	if ix.unfolded || ix.story.Phases != nil || len(ix.story.Proposals) > 0 {
		return nil
	}
	out := map[string][]worldValue{}
	all := false
	var w story.EffectWalk
	for p := range w.States(ix.story.AllStates()...) {
		e := p.Effect
		if e.Selection() != nil {
			all = true
		}
		for _, kv := range e.Set {
			first, _, _ := strings.Cut(kv.Key, ".")
			switch {
			case story.IsTemplated(kv.Key):
				all = true
			case first == kv.Key && copyOf(kv.Value) != nil:
				out[first] = append(out[first], *copyOf(kv.Value))
				out[first][len(out[first])-1].where = p.String()
			case first != kv.Key || hasTemplate(kv.Value):
				out[first] = append(out[first], worldValue{v: unknownValue})
			case kv.Value == nil:
				out[kv.Key] = append(out[kv.Key], worldValue{v: nil, where: p.String()}, worldValue{v: "", where: p.String()}) // a null set may be kept as ""
			default:
				out[kv.Key] = append(out[kv.Key], worldValue{v: jsonvalue.Normalize(kv.Value), where: p.String()})
			}
		}
		for _, kv := range append(append([]story.KV{}, e.Increment()...), e.Bind()...) {
			if story.IsTemplated(kv.Key) {
				all = true
			}
			first, _, _ := strings.Cut(kv.Key, ".")
			if path, _ := kv.Value.(string); first == kv.Key && e.Background() && strings.TrimSpace(path) == "job_id" && slices.Contains(e.Bind(), kv) {
				out[first] = append(out[first], worldValue{v: jobIDValue, where: p.String()})
				continue
			}
			out[first] = append(out[first], worldValue{v: unknownValue})
		}
	}
	if all {
		return nil
	}
	return out
}

// copyOf is the copy a set: value v makes of another key (copyRead), or
// nil.
func copyOf(v any) *worldValue {
	s, isText := v.(string)
	m := copyRead.FindStringSubmatch(s)
	if !isText || m == nil {
		return nil
	}
	c := worldValue{ref: m[1]}
	if strings.Contains(s, "??") {
		c.alt, c.hasAlt = m[2]+m[3], true
	}
	return &c
}
