package host

import (
	"maps"
	"slices"
	"strings"
)

// Registry maps handler names to handlers. The zero value is not usable;
// use NewRegistry.
type Registry struct {
	h map[string]Handler
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{h: map[string]Handler{}} }

// Register serves name with h, replacing any handler of that exact name.
func (r *Registry) Register(name string, h Handler) { r.h[name] = h }

// Lookup finds the handler for name: the exact name first, then the
// longest registered dotted prefix (story-runtime.md §2.2). op is the
// dropped suffix ("" on an exact match).
func (r *Registry) Lookup(name string) (h Handler, served, op string, ok bool) {
	if h, ok := r.h[name]; ok {
		return h, name, "", true
	}
	for p := name; ; {
		i := strings.LastIndexByte(p, '.')
		if i <= 0 {
			return nil, "", "", false
		}
		p = p[:i]
		if h, ok := r.h[p]; ok {
			return h, p, name[len(p)+1:], true
		}
	}
}

// Names lists the registered handler names, sorted.
func (r *Registry) Names() []string { return slices.Sorted(maps.Keys(r.h)) }
