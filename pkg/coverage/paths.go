package coverage

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/graph"
)

// Hint is how a session gets to the state an unreached arc leaves from:
// the fewest intents from the story's root (graph.IntentPaths).
type Hint struct {
	Story, Root string // as kitsoki run takes them (Root "" = no --root)
	State       string // the state the arc leaves from
	// Found is false when no intent path reaches State; Moved then tells
	// whether one with timeouts, on_error or on_complete moves does.
	Found, Moved bool
	Path         *graph.IntentPath
	Slots        map[string][]string // required slots, each a --slot
}

// MaxHintBytes bounds a hint's kitsoki run command: a path too long for
// it (a chain of thousands of states, or intents with huge names) is told
// by its length, so -v's hints cost output in proportion to the moves
// listed, not to the moves times the path to each.
const MaxHintBytes = 4096

// Hints finds a Hint for each unreached arc of a profile: register each
// story's whole drawing with AddStory, then ask For.
type Hints struct {
	sites map[posKey][]Hint
}

// NewHints returns an empty Hints.
func NewHints() *Hints { return &Hints{sites: map[posKey][]Hint{}} }

// AddStory registers the moves of g, the whole drawing of a story; name
// and root are how kitsoki run is to be given it (root "" = no --root).
func (h *Hints) AddStory(name, root string, g *graph.Graph) {
	paths, moved := g.IntentPaths(), g.MoveReachable()
	for _, e := range g.Edges {
		p, found := paths[e.From]
		hint := Hint{Story: name, Root: root, State: e.From, Found: found, Moved: moved[e.From], Path: p, Slots: g.Slots}
		key := posKey{absFile(e.Pos.File), edgeKind(e), e.Pos.Line, e.Pos.Col}
		h.sites[key] = append(h.sites[key], hint)
	}
}

// For returns the hint for l, an arc-kind item of a profile relative to
// base: the shortest path among the moves written there.
func (h *Hints) For(base string, l Located) (Hint, bool) {
	if h == nil || !arcKind(l.Kind) {
		return Hint{}, false
	}
	file := fromBase(base, l.Path)
	var best Hint
	ok := false
	for _, s := range h.sites[posKey{absFile(file), l.Kind, l.Line, l.Col}] {
		if !ok || better(s, best) {
			best, ok = s, true
		}
	}
	return best, ok
}

func better(a, b Hint) bool {
	if a.Found != b.Found {
		return a.Found
	}
	if a.Moved != b.Moved {
		return a.Moved
	}
	return a.Path.Len() < b.Path.Len()
}

// Command is the hint as a kitsoki run command line (shell-quoted), with
// VALUE where a required slot needs one; "" when no path was found or the
// command would pass MaxHintBytes.
func (h Hint) Command() string {
	if !h.Found || h.Path.Bytes()+len(" --intent ")*h.Path.Len() > MaxHintBytes {
		return ""
	}
	var b strings.Builder
	b.WriteString("kitsoki run " + termsafe.ShellWord(h.Story))
	if h.Root != "" {
		b.WriteString(" --root " + termsafe.ShellWord(h.Root))
	}
	for _, in := range h.Path.Intents() {
		b.WriteString(" --intent " + termsafe.ShellWord(in))
		for _, s := range h.Slots[in] {
			if b.Len() > MaxHintBytes {
				return ""
			}
			b.WriteString(" --slot " + termsafe.ShellWord(s+"=VALUE"))
		}
	}
	if b.Len() > MaxHintBytes {
		return ""
	}
	return b.String()
}

// needsSlot reports whether the path asks for a slot's value (call it on
// a hint whose Command is printed: it lists the path).
func (h Hint) needsSlot() bool {
	return slices.ContainsFunc(h.Path.Intents(), func(in string) bool { return len(h.Slots[in]) > 0 })
}

// edgeKind is the kind of profile item a drawn move is counted as.
func edgeKind(e *graph.Edge) engine.ReachKind {
	return cmp.Or(edgeKinds[e.Kind], engine.ReachArc)
}

var edgeKinds = map[graph.EdgeKind]engine.ReachKind{graph.EdgeOnError: engine.ReachOnError, graph.EdgeTimeout: engine.ReachTimeout, graph.EdgeOnComplete: engine.ReachOnComplete}

// fromBase is a profile path as a file path, a relative one taken from
// base.
func fromBase(base, p string) string {
	if p = filepath.FromSlash(p); filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}

// absFile is file made absolute (as it is when that fails).
func absFile(file string) string {
	if abs, err := filepath.Abs(file); err == nil {
		return abs
	}
	return filepath.Clean(file)
}
