package expr

import "slices"

// Exprs are every expression of the template ({{ e }}, {{ if c }},
// {{ range l }}), in source order; those inside a {{ range }} read item
// for `.`.
func (t *Template) Exprs() []*Program { return slices.Clone(t.progs) }
