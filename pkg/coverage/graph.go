package coverage

import (
	"kitsoki/pkg/engine"
	"kitsoki/pkg/graph"
	"kitsoki/pkg/story"
)

var _ graph.Coverage = (*GraphCoverage)(nil)

// GraphCoverage answers graph.Coverage from a profile: positions (file,
// line, column and kind), not state paths, tie an item to a drawn part.
type GraphCoverage struct {
	items  map[posKey]int64
	states map[string]story.Pos // a drawn state's path → where it was written
	// Known counts the drawn parts the profile has an item for (0: the
	// profile is about other files, or relative to another directory).
	Known int
}

// posKey is an item's identity across files.
type posKey struct {
	file      string
	kind      engine.ReachKind
	line, col int
}

// NewGraphCoverage matches p, its paths relative to base, against g, the
// whole drawing before any graph.View narrows it.
func NewGraphCoverage(p *Profile, base string, g *graph.Graph) *GraphCoverage {
	gc := &GraphCoverage{items: map[posKey]int64{}, states: map[string]story.Pos{}}
	for _, f := range p.Files {
		file := absFile(fromBase(base, f.Path))
		for _, it := range f.Items {
			gc.items[posKey{file, it.Kind, it.Line, it.Col}] = it.Count
		}
	}
	for _, n := range g.Nodes() {
		switch n.Kind {
		case graph.KindState, graph.KindCompound, graph.KindParallel, graph.KindImport:
			gc.states[n.Path] = n.Pos
			if _, known := gc.StateReached(n.Path); known {
				gc.Known++
			}
		}
	}
	for _, e := range g.Edges {
		if _, known := gc.EdgeReached(e); known {
			gc.Known++
		}
	}
	return gc
}

// StateReached implements graph.Coverage.
func (gc *GraphCoverage) StateReached(path string) (reached, known bool) {
	p, ok := gc.states[path]
	if !ok {
		return false, false
	}
	return gc.lookup(p, engine.ReachState)
}

// EdgeReached implements graph.Coverage.
func (gc *GraphCoverage) EdgeReached(e *graph.Edge) (reached, known bool) {
	return gc.lookup(e.Pos, edgeKind(e))
}

func (gc *GraphCoverage) lookup(p story.Pos, k engine.ReachKind) (reached, known bool) {
	n, ok := gc.items[posKey{absFile(p.File), k, p.Line, p.Col}]
	return n > 0, ok
}
