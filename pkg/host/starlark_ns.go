package host

import (
	"maps"
	"slices"

	"go.starlark.net/starlark"
)

// starNS is one of ctx's namespaces (ctx.world, ctx.http, ctx.fs) as
// upstream shows them: type() and str() are the namespace's name, dir()
// its functions, and indexing it is Starlark's "unhandled index
// operation ctx.world[string]" (conformance star-ctx).
type starNS struct {
	name  string
	attrs starlark.StringDict
}

var _ starlark.HasAttrs = (*starNS)(nil)

func (n *starNS) String() string        { return n.name }
func (n *starNS) Type() string          { return n.name }
func (n *starNS) Freeze()               {}
func (n *starNS) Truth() starlark.Bool  { return starlark.True }
func (n *starNS) Hash() (uint32, error) { return starlark.String(n.name).Hash() }
func (n *starNS) Attr(name string) (starlark.Value, error) {
	return n.attrs[name], nil // nil, nil: Starlark's "has no .x field or method"
}
func (n *starNS) AttrNames() []string {
	return slices.Sorted(maps.Keys(n.attrs))
}
