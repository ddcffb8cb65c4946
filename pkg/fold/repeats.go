package fold

import (
	"math"

	"kitsoki/pkg/story"
)

// RepeatsAtMost bounds what folding st repeats against limit (an
// [Options.RepeatLimit]; 0 means [MaxRepeats]), stopping past it, read
// from the import tree without folding it: a child's world key with a
// default (a wrapper's reset), arc or state-local intent (a spelling) and
// override node repeat at most once per import level above the child. A
// tree with a phases: block below the top, or of more imports than
// story.MaxFoldImports, is not bounded (math.MaxInt): the expansion adds
// states the tree does not show; the fold refuses the import count. pkg/validate folds a
// story whose bound passes the limit, so validate reports what run would.
func RepeatsAtMost(st *story.Story, limit int) int {
	if st == nil {
		return 0
	}
	b := repeatsBound{limit: Options{MaxRepeats: limit}.RepeatLimit(), own: map[*story.Story]int{}, overrides: map[*story.Story]int{}, on: map[*story.Story]bool{st: true}}
	b.walk(st, 0)
	return b.sum
}

type repeatsBound struct {
	limit     int
	sum       int
	imports   int
	own       map[*story.Story]int // a child's world defaults, arcs and state intents
	overrides map[*story.Story]int // story.FoldOverrideNodes' memo
	on        map[*story.Story]bool
}

// walk adds what each import of st at depth repeats, stopping past
// b.limit.
func (b *repeatsBound) walk(st *story.Story, depth int) {
	for _, alias := range st.ImportOrder {
		im := st.Imports[alias]
		ch := im.Child
		if ch == nil || b.on[ch] || b.sum > b.limit {
			continue // an import cycle is the fold's error, not a repeat
		}
		if b.imports++; ch.Phases != nil || b.imports > story.MaxFoldImports {
			b.sum = math.MaxInt
			return
		}
		per := b.ownOf(ch) + story.FoldOverrideNodes(im, b.overrides)
		b.sum = min(b.sum+(depth+1)*per, b.limit+1)
		b.on[ch] = true
		b.walk(ch, depth+1)
		delete(b.on, ch)
	}
}

// ownOf is what one level above ch can repeat of ch's own names.
func (b *repeatsBound) ownOf(ch *story.Story) int {
	if n, ok := b.own[ch]; ok {
		return n
	}
	n := 0
	for _, w := range ch.World {
		if w.Default != nil && !story.IsReservedWorld(w.Name) {
			n++
		}
	}
	for _, s := range story.Flatten(ch.States) {
		n += len(s.On) + len(s.Intents)
	}
	b.own[ch] = n
	return n
}
