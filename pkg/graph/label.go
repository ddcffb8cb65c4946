package graph

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"kitsoki/internal/termsafe"
)

// labelWidth is the width past which a label is wrapped at a space.
const labelWidth = 40

func nodeLabel(n *Node) []string {
	kind := n.Kind
	if kind == KindCollapsed {
		kind = n.Was
	}
	var out []string
	switch kind {
	case KindParallel:
		out = wrap(n.Label + " (parallel)")
	case KindImport:
		out = append(wrap(n.Label), wrap("imports "+n.Source)...)
	case KindStub:
		out = wrap("→ " + n.Label)
	default:
		out = wrap(n.Label)
	}
	if n.Kind != KindCollapsed {
		return out
	}
	sum := plural(len(n.States)-1, "state", "states")
	if n.Inner > 0 {
		sum += ", " + plural(n.Inner, "move", "moves") + " inside"
	}
	return append(out, sum)
}

// edgeLabel is the text of an edge, line by line; a merged edge counts
// its moves.
func edgeLabel(e *Edge) []string {
	if len(e.Merged) > 1 {
		return mergedLabel(e)
	}
	out := moveLabel(e)
	if e.Chosen {
		out = append(out, "(template)")
	}
	return out
}

func moveLabel(e *Edge) []string {
	switch e.Kind {
	case EdgeOnError:
		return wrap(withHandler("on_error", e.Intent))
	case EdgeTimeout:
		return wrap("timeout " + e.After)
	case EdgeOnComplete:
		out := wrap(withHandler("on_complete", e.Intent))
		if e.Exit != "" {
			out = append(out, wrap("exit "+e.Exit)...)
		}
		return out
	}
	out := wrap(e.Intent)
	if g := oneLine(e.Guard); g != "" {
		out = append(out, wrap("["+g+"]")...)
	}
	if e.Kind == EdgeExit && e.head != nil && e.head.Kind != KindExit {
		out = append(out, wrap("exit "+e.Exit)...)
	}
	return out
}

func withHandler(what, handler string) string {
	if handler == "" {
		return what
	}
	return what + " (" + handler + ")"
}

// mergedNames are what a merged edge counts its moves as, one and many.
var mergedNames = map[EdgeKind][2]string{EdgeArc: {"arc", "arcs"}, EdgeExit: {"exit", "exits"}, EdgeOnError: {"on_error", "on_error redirects"},
	EdgeTimeout: {"timeout", "timeouts"}, EdgeOnComplete: {"on_complete", "on_complete targets"}}

func mergedLabel(e *Edge) []string {
	name := mergedNames[e.Kind]
	what := plural(len(e.Merged), name[0], name[1])
	if e.Kind != EdgeArc && e.Kind != EdgeExit {
		return []string{what}
	}
	var intents []string
	for _, m := range e.Merged {
		if !slices.Contains(intents, m.Intent) {
			intents = append(intents, m.Intent)
		}
	}
	return wrap(what + ": " + strings.Join(intents, ", "))
}

// plural is "1 state" or "n states".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// oneLine replaces control characters (termsafe.IsControl included: the
// drawing is printed on a terminal by default) with spaces and collapses
// runs of spaces.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || termsafe.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return strings.Join(strings.Fields(s), " ")
}

// wrap splits s (made one line) into lines of at most labelWidth
// characters, breaking at spaces.
func wrap(s string) []string {
	words := strings.Fields(oneLine(s))
	if len(words) == 0 {
		return nil
	}
	var out []string
	cur, n := words[0], len([]rune(words[0]))
	for _, w := range words[1:] {
		wn := len([]rune(w))
		if n+1+wn > labelWidth {
			out = append(out, cur)
			cur, n = w, wn
			continue
		}
		cur += " " + w
		n += 1 + wn
	}
	return append(out, cur)
}
