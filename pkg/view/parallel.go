package view

import (
	"strings"
)

// splitParallel splits an encoded parallel path "root#leafA|leafB" into the
// root and its region leaves (story-runtime §3.2).
func splitParallel(path string) (root string, leaves []string, ok bool) {
	root, rest, ok := strings.Cut(path, "#")
	if !ok {
		return "", nil, false
	}
	for _, l := range strings.Split(rest, "|") {
		if l = strings.TrimSpace(l); l != "" {
			leaves = append(leaves, l)
		}
	}
	return root, leaves, true
}

// renderParallel renders a parallel state's view: the root's own view,
// then each region leaf's view in the order the path names them: sorted,
// as the engine encodes a configuration (story-runtime §3.6), or as a
// fixture's parallel initial_state wrote them while upstream keeps that
// string (conformance par-start-verbatim).
// Each leaf renders with its own state.path and description; a leaf
// without a view of its own adds nothing (its region's view is not used,
// as upstream). The renders are chained as upstream's: each is added after
// a blank line once the text so far is not empty, so an empty render
// before any text vanishes while one after it leaves its blank lines
// (`A`, "", `C` is "A\n\n\n\nC"; "", "", `C` is "C"; conformance
// view-par-empty-region).
func (r *Renderer) renderParallel(rootPath string, leaves []string, world, extra map[string]any) (string, error) {
	par, err := r.leaves(leaves)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range append([]string{rootPath}, leaves...) {
		s, err := r.state(p)
		if err != nil {
			return "", err
		}
		if s.View == nil {
			continue
		}
		out, err := r.render(s.View, s, par, world, extra)
		if err != nil {
			return "", err
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(out)
	}
	return b.String(), nil
}
