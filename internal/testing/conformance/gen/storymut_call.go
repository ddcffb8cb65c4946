package main

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// ycall is one invoke: effect of a copied story and the state whose
// on_enter or arm holds it (nested on_complete lists included).
type ycall struct {
	st *ystate
	n  *yaml.Node
}

// calls lists every invoke: effect of the story with its state.
func (sn *storyNodes) calls() []ycall {
	var out []ycall
	var walk func(st *ystate, seq *yaml.Node)
	walk = func(st *ystate, seq *yaml.Node) {
		if seq == nil || seq.Kind != yaml.SequenceNode {
			return
		}
		for _, e := range seq.Content {
			if e.Kind != yaml.MappingNode {
				continue
			}
			if mapGet(e, "invoke") != nil {
				out = append(out, ycall{st, e})
			}
			walk(st, mapGet(e, "on_complete"))
			walk(st, mapGet(e, "effects"))
		}
	}
	for _, st := range sn.states {
		walk(st, mapGet(st.n, "on_enter"))
	}
	for _, a := range sn.arms {
		walk(a.st, mapGet(a.n, "effects"))
	}
	return out
}

// bindPaths are result paths a bind: draws: fields the built-ins and the
// corpus stubs answer with, one that no answer has, and the whole answer.
var bindPaths = []string{"ok", "stdout", "exit_code", "message_id", "path", "data", "no_such_field", ""}

// editCall changes how a host call's answer lands: its on_error (set to
// "." or another target, or removed) or its bind: (a key dropped, pointed
// at another result path, or a world key bound).
func (g *gen) editCall(sn *storyNodes) string {
	cs := sn.calls()
	if len(cs) == 0 {
		return ""
	}
	c := cs[g.rnd.IntN(len(cs))]
	name := sval(mapGet(c.n, "invoke"))
	switch g.rnd.IntN(4) {
	case 0:
		if mapGet(c.n, "on_error") != nil {
			mapDel(c.n, "on_error")
			sn.touch()
			return fmt.Sprintf("call %s in %s: on_error removed", name, c.st.path)
		}
		fallthrough
	case 1:
		to := "."
		if g.chance(60) {
			to = g.targetFor(sn, c.st)
		}
		mapSet(c.n, "on_error", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: to, Style: yaml.DoubleQuotedStyle})
		sn.touch()
		return fmt.Sprintf("call %s in %s: on_error %q", name, c.st.path, to)
	}
	b := mapGet(c.n, "bind")
	if b != nil && b.Kind == yaml.MappingNode && len(b.Content) >= 2 && g.chance(50) {
		i := 2 * g.rnd.IntN(len(b.Content)/2)
		k := b.Content[i].Value
		if len(b.Content) > 2 && g.chance(40) {
			mapDel(b, k)
			sn.touch()
			return fmt.Sprintf("call %s in %s: bind %s dropped", name, c.st.path, k)
		}
		p := bindPaths[g.rnd.IntN(len(bindPaths))]
		b.Content[i+1] = str(p)
		sn.touch()
		return fmt.Sprintf("call %s in %s: bind %s <- %q", name, c.st.path, k, p)
	}
	if b == nil || b.Kind != yaml.MappingNode {
		b = node("{}")
		mapSet(c.n, "bind", b)
	}
	k, p := g.worldKey(sn), bindPaths[g.rnd.IntN(len(bindPaths))]
	mapSet(b, k, str(p))
	sn.touch()
	return fmt.Sprintf("call %s in %s: bind %s <- %q", name, c.st.path, k, p)
}
