package view

import (
	"slices"
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
// then each region leaf's view in sorted path order, joined by a blank
// line (story-runtime §3.6). Each leaf renders with its own state.path and
// description; a leaf without a view of its own adds nothing (its region's
// view is not used, as upstream). Empty renders are left out.
func (r *Renderer) renderParallel(rootPath string, leaves []string, world, extra map[string]any) (string, error) {
	var parts []string
	for _, p := range append([]string{rootPath}, slices.Sorted(slices.Values(leaves))...) {
		s, err := r.state(p)
		if err != nil {
			return "", err
		}
		if s.View == nil {
			continue
		}
		out, err := r.render(s.View, s, world, extra)
		if err != nil {
			return "", err
		}
		if out != "" {
			parts = append(parts, out)
		}
	}
	return strings.Join(parts, "\n\n"), nil
}
