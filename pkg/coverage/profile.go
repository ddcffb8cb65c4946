package coverage

import (
	"cmp"
	"math"
	"slices"

	"kitsoki/pkg/engine"
)

// Version is the JSON profile's format version (its kitsoki_coverage key).
const Version = 1

// Profile is what the fixtures of a test run reached, per story file.
type Profile struct {
	Files []*File // sorted by Path
}

// File is one story file's items, sorted by line, column and kind.
type File struct {
	Path  string
	Items []Item
}

// Item is one part of a story (engine.Reachable) and how many times the
// fixtures reached it.
type Item struct {
	Kind  engine.ReachKind
	Line  int
	Col   int
	State string // the declaring state ("" for an exit)
	Label string
	Count int64
}

// Figure is reached of total.
type Figure struct {
	Reached int `json:"reached"`
	Total   int `json:"total"`
}

// Percent is the reached share in percent (100 when Total is 0).
func (f Figure) Percent() float64 {
	if f.Total == 0 {
		return 100
	}
	return 100 * float64(f.Reached) / float64(f.Total)
}

func (f *Figure) add(count int64) {
	f.Total++
	if count > 0 {
		f.Reached++
	}
}

// Summary counts items by what the summary line names (arcKind; States
// are states and exits). It is the JSON profile's summary too.
type Summary struct {
	Arcs    Figure `json:"arcs"`
	States  Figure `json:"states"`
	Effects Figure `json:"effects"`
}

// arcKind reports whether k is counted with the arcs of the summary line.
func arcKind(k engine.ReachKind) bool {
	switch k {
	case engine.ReachArc, engine.ReachTimeout, engine.ReachOnError, engine.ReachOnComplete:
		return true
	}
	return false
}

// Summarize counts p's items.
func (p *Profile) Summarize() Summary {
	var s Summary
	for _, f := range p.Files {
		for _, it := range f.Items {
			switch {
			case arcKind(it.Kind):
				s.Arcs.add(it.Count)
			case it.Kind == engine.ReachState || it.Kind == engine.ReachExit:
				s.States.add(it.Count)
			default:
				s.Effects.add(it.Count)
			}
		}
	}
	return s
}

// itemKey is an item's identity within its file.
type itemKey struct {
	kind      engine.ReachKind
	line, col int
}

func compareItems(a, b Item) int {
	return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Kind, b.Kind))
}

// Merge adds profiles up: the union of their items, counts summed; an
// item named differently keeps the smaller label, whatever the order.
func Merge(ps ...*Profile) *Profile {
	files := map[string]map[itemKey]*Item{}
	for _, p := range ps {
		if p == nil {
			continue
		}
		for _, f := range p.Files {
			m := itemsOf(files, f.Path)
			for _, it := range f.Items {
				add(m, it)
			}
		}
	}
	return build(files)
}

// itemsOf is the items of path in files, made empty on first use.
func itemsOf(files map[string]map[itemKey]*Item, path string) map[itemKey]*Item {
	m := files[path]
	if m == nil {
		m = map[itemKey]*Item{}
		files[path] = m
	}
	return m
}

func add(m map[itemKey]*Item, it Item) {
	k := itemKey{it.Kind, it.Line, it.Col}
	cur := m[k]
	if cur == nil {
		cp := it
		m[k] = &cp
		return
	}
	// counts are 0 or more (ParseJSON): a sum past int64 saturates
	if it.Count > math.MaxInt64-cur.Count {
		cur.Count = math.MaxInt64
	} else {
		cur.Count += it.Count
	}
	if it.State < cur.State || it.State == cur.State && it.Label < cur.Label {
		cur.State, cur.Label = it.State, it.Label
	}
}

// build sorts a file → item map into a Profile.
func build(files map[string]map[itemKey]*Item) *Profile {
	p := &Profile{}
	for path, m := range files {
		f := &File{Path: path, Items: make([]Item, 0, len(m))}
		for _, it := range m {
			f.Items = append(f.Items, *it)
		}
		slices.SortFunc(f.Items, compareItems)
		p.Files = append(p.Files, f)
	}
	slices.SortFunc(p.Files, func(a, b *File) int { return cmp.Compare(a.Path, b.Path) })
	return p
}

// Line is one source line's items, for the line-based formats.
type Line struct {
	Number int
	Count  int64 // the smallest of its items': reached when all were
	Items  []Item
}

// Lines groups f's items by line and counts the lines reached.
func (f *File) Lines() ([]Line, Figure) {
	var out []Line
	for _, it := range f.Items {
		if n := len(out); n > 0 && out[n-1].Number == it.Line {
			l := &out[n-1]
			l.Count = min(l.Count, it.Count)
			l.Items = append(l.Items, it)
			continue
		}
		out = append(out, Line{Number: it.Line, Count: it.Count, Items: []Item{it}})
	}
	var fig Figure
	for _, l := range out {
		fig.add(l.Count)
	}
	return out, fig
}

// Unreached lists the items no fixture reached, file by file.
func (p *Profile) Unreached() []Located {
	var out []Located
	for _, f := range p.Files {
		for _, it := range f.Items {
			if it.Count == 0 {
				out = append(out, Located{Path: f.Path, Item: it})
			}
		}
	}
	return out
}

// Located is an item with its file.
type Located struct {
	Path string
	Item
}
