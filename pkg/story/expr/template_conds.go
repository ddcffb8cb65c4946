package expr

// Conds are the template's {{ if }} conditions, in source order (those
// inside a {{ range }} read item for `.`).
func (t *Template) Conds() []*Program {
	var out []*Program
	var walk func(nodes []tNode)
	walk = func(nodes []tNode) {
		for _, n := range nodes {
			switch x := n.(type) {
			case *tIf:
				for _, b := range x.branches {
					if b.cond != nil {
						out = append(out, b.cond)
					}
					walk(b.body)
				}
			case *tRange:
				walk(x.body)
			}
		}
	}
	walk(t.nodes)
	return out
}
