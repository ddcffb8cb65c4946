package view

import (
	"strings"
)

// splitParallel splits "root#leafA|leafB" into the root and its leaves.
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

// renderParallel renders a parallel state's view: the root's own, then each
// region leaf's own in the order the path names them (conformance
// par-start-verbatim). Each render is added after a blank line once the
// text so far is not empty, as upstream chains them (conformance
// view-par-empty-region).
func (r *Renderer) renderParallel(rootPath string, leaves []string, world, extra map[string]any) (string, error) {
	par, err := r.leaves(leaves)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, p := range append([]string{rootPath}, leaves...) {
		s, err := r.state(p)
		if err != nil && i == 0 {
			// a root the story lacks, where a flow may start (zz#p.a.x):
			// the entries still show (conformance start-odd-root)
			continue
		}
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
