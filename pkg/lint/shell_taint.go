package lint

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"kitsoki/pkg/story"
)

// taint is why a world key holds an untrusted value: how it is written
// (why) and, for a key set from another key, where that value came from.
type taint struct{ why, origin string }

func (t taint) String() string {
	if t.origin == "" {
		return t.why
	}
	return t.why + " (" + t.origin + ")"
}

// taintedWorld is the folded world keys of an import tree that may hold
// an untrusted value, and the places of its stories in the folded tree.
type taintedWorld struct {
	keys   map[string]taint
	scopes map[*story.Story][]*foldScope
	// partial: the tree folds past story.MaxFoldImports and its places
	// were not all listed; a read then matches a tainted key by its name
	// (names: the keys, sorted once)
	partial bool
	names   []string
}

// engineTainted are the world keys the engine sets from a call's answer
// (story-runtime §1.1; pkg/engine setError and the job's on_complete).
var engineTainted = map[string]string{
	"last_error":      "set by the engine to a failed call's error text",
	"host_error":      "set by the engine to a failed call's error",
	"last_job_result": "set by the engine to a background job's result",
}

// taintWrite is one set:, world_in: or exit set: of a folded key with
// the template reads of its value and the folded keys those name.
type taintWrite struct {
	key   string
	reads []tplRead
	keys  []string // reads[i]'s folded key (root world)
	// trusted: reads[i] (root slots) is an enum slot's value (slotTrust)
	trusted []bool
	pos     story.Pos
}

// runScalarData are host.run result fields that hold no text a command
// controls (a bool or an int).
var runScalarData = map[string]bool{"exit_code": true, "ok": true, "timed_out": true, "stdout_truncated": true}

// treeTaint works out the untrusted folded world keys of st's import
// tree: the keys the engine sets from a call's answer, every bind: target
// of a call, then, to a fixed point, every key a set:, world_in: or exit
// set: writes from an untrusted read. Keys are the fold's (foldScope): a
// child's world.x is <alias>__x where it declares x, and the importer's x
// where it does not, so taint flows exactly where the run shares a key.
func treeTaint(src *sources, st *story.Story) *taintedWorld {
	top := st
	for top.Importer() != nil {
		top = top.Importer()
	}
	scopes, complete := foldScopes(top)
	b := &taintBuilder{src: src, emits: src.slotEmits(top),
		tw: &taintedWorld{keys: map[string]taint{}, scopes: scopes, partial: !complete}}
	for k, why := range engineTainted {
		b.tw.keys[k] = taint{why: why}
	}
	for _, s := range append([]*story.Story{top}, top.Children()...) {
		b.story(s)
	}
	// each round taints at least one more key, or is the last
	for changed := true; changed; {
		changed = false
		for _, w := range b.writes {
			if _, ok := b.tw.keys[w.key]; ok {
				continue
			}
			if t, ok := b.tw.derived(w); ok {
				b.tw.keys[w.key] = t
				changed = true
			}
		}
	}
	return b.tw
}

// taintBuilder gathers treeTaint's binds and writes, story by story.
type taintBuilder struct {
	src    *sources
	emits  map[string][]emitSlot
	tw     *taintedWorld
	writes []taintWrite
}

// story adds the binds and writes of s in each of its places: its
// effects', its imports' world_in: and exits' set:.
func (b *taintBuilder) story(s *story.Story) {
	scopes := b.tw.scopes[s]
	storyEffects(b.src, s, func(p *story.EffectPlace, _ bool, over string) {
		e := p.Effect
		sets := make([][]tplRead, len(e.Set))
		for i, kv := range e.Set {
			sets[i] = valueReads(kv.Value)
		}
		for _, sc := range scopes {
			if over != "" { // an overrides: state runs in the child's scope
				if sc = sc.child(over, b.tw.scopes); sc == nil {
					continue
				}
			}
			b.binds(sc, e)
			for i, kv := range e.Set {
				b.write(sc, p, kv.Key, sets[i], kv.Pos)
			}
		}
	})
	for _, alias := range s.ImportOrder {
		im := s.Imports[alias]
		for _, kv := range im.WorldIn {
			reads := valueReads(kv.Value)
			for _, sc := range scopes {
				b.write(sc, nil, alias+"__"+kv.Key, reads, kv.Pos)
			}
		}
		for _, en := range sortedMapKeys(im.Exits) {
			for _, kv := range im.Exits[en].Set {
				reads := valueReads(kv.Value)
				for _, sc := range scopes {
					b.write(sc, nil, kv.Key, reads, kv.Pos)
				}
			}
		}
	}
}

// binds taints, in scope sc, every bind: target of e but a host.run
// field that holds no text.
func (b *taintBuilder) binds(sc *foldScope, e *story.Effect) {
	for _, kv := range e.Bind() {
		k := worldKeyOf(kv.Key)
		if v, _ := kv.Value.(string); k == "" || e.Invoke == "host.run" && runScalarData[v] {
			continue
		}
		if _, ok := b.tw.keys[sc.key(k)]; !ok {
			b.tw.keys[sc.key(k)] = taint{why: fmt.Sprintf("bound from %s at %s", cmp.Or(e.Invoke, "a call"), posText(kv.Pos))}
		}
	}
}

// write records a write of key in scope sc from a value with reads
// (place: the effect's, nil for world_in: and exit set:, whose slots are
// not known).
func (b *taintBuilder) write(sc *foldScope, place *story.EffectPlace, key string, reads []tplRead, p story.Pos) {
	k := worldKeyOf(key)
	if k == "" || len(reads) == 0 {
		return
	}
	keys, trusted := make([]string, len(reads)), make([]bool, len(reads))
	for i, r := range reads {
		switch r.root {
		case "world":
			keys[i] = sc.readKey(r)
		case "slots":
			trusted[i] = slotTrust(b.src.intentDecls(sc.st), place, r, b.emits) == ""
		}
	}
	b.writes = append(b.writes, taintWrite{sc.key(k), reads, keys, trusted, p})
}

// valueReads is the template reads of every string in a written value.
func valueReads(v any) []tplRead {
	var reads []tplRead
	walkStrings(v, "", func(_, s string) {
		if strings.Contains(s, "{") {
			reads = append(reads, templateReads(s)...)
		}
	})
	return reads
}

// derived is the taint of a write's key from its value's first untrusted
// read, if it has one.
func (tw *taintedWorld) derived(w taintWrite) (taint, bool) {
	for i, r := range w.reads {
		why := fmt.Sprintf("set from %s at %s", r.text, posText(w.pos))
		if r.root != "world" {
			if w.trusted[i] {
				continue
			}
			return taint{why: why}, true
		}
		if src, ok := tw.keys[w.keys[i]]; ok {
			origin := src.origin
			if origin == "" {
				origin = "world." + r.key + " is " + src.why
			}
			return taint{why: why, origin: origin}, true
		}
	}
	return taint{}, false
}

// worldKeyOf is the world key a written name gives a value (a dotted path
// writes its first segment); "" for a name built from a template or a
// phase placeholder.
func worldKeyOf(name string) string {
	if strings.ContainsAny(name, "{}") {
		return ""
	}
	k, _, _ := strings.Cut(name, ".")
	return k
}

// posText is a source position as file:line.
func posText(p story.Pos) string {
	return p.File + ":" + strconv.Itoa(p.Line)
}
