package view

import (
	"sort"
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
	root, err := r.state(rootPath)
	if err != nil {
		return "", err
	}
	var parts []string
	if root.View != nil {
		out, err := r.render(root.View, root, world, extra)
		if err != nil {
			return "", err
		}
		if out != "" {
			parts = append(parts, out)
		}
	}
	sorted := append([]string(nil), leaves...)
	sort.Strings(sorted)
	for _, lp := range sorted {
		leaf, err := r.state(lp)
		if err != nil {
			return "", err
		}
		if leaf.View == nil {
			continue
		}
		out, err := r.render(leaf.View, leaf, world, extra)
		if err != nil {
			return "", err
		}
		if out != "" {
			parts = append(parts, out)
		}
	}
	return strings.Join(parts, "\n\n"), nil
}
