package host

import (
	"maps"
	"slices"
	"strings"
)

// Registry maps handler names to handlers. The zero value is not usable;
// use NewRegistry.
type Registry struct {
	h    map[string]Handler
	info map[string]Info
}

// Info says where a registered handler comes from, for listings
// (kitsoki plugins) and missing-handler errors.
type Info struct {
	// Source: "builtin", "provider:<plugin id>", "stub", "cassette", ...
	// ("" when registered with plain Register).
	Source  string `json:"source"`
	Summary string `json:"summary,omitempty"`
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{h: map[string]Handler{}, info: map[string]Info{}} }

// Register serves name with h, replacing any handler of that exact name.
func (r *Registry) Register(name string, h Handler) {
	r.h[name] = h
	delete(r.info, name)
}

// RegisterInfo is Register with a description of the handler's origin.
func (r *Registry) RegisterInfo(name string, h Handler, info Info) {
	r.h[name] = h
	r.info[name] = info
}

// Info returns what is known of the handler registered at exactly name.
func (r *Registry) Info(name string) (Info, bool) {
	if _, ok := r.h[name]; !ok {
		return Info{}, false
	}
	return r.info[name], true
}

// Lookup finds the handler for name by [Route]. op is the dropped suffix
// ("" on an exact match).
func (r *Registry) Lookup(name string) (h Handler, served, op string, ok bool) {
	served, op, ok = Route(name, func(n string) bool {
		_, ok := r.h[n]
		return ok
	})
	return r.h[served], served, op, ok
}

// Route is the rule that picks who serves name among the names has
// knows: the exact name first, then the longest dotted prefix
// (story-runtime.md §2.2), whose dropped suffix is op.
func Route(name string, has func(string) bool) (served, op string, ok bool) {
	for p := name; ; {
		if has(p) {
			return p, strings.TrimPrefix(name[len(p):], "."), true
		}
		i := strings.LastIndexByte(p, '.')
		if i <= 0 {
			return "", "", false
		}
		p = p[:i]
	}
}

// Names lists the registered handler names, sorted.
func (r *Registry) Names() []string { return slices.Sorted(maps.Keys(r.h)) }
