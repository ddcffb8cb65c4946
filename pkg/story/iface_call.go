package story

import "strings"

// IfaceCall splits an `iface.<name>.<op>` invoke as the existing engine
// resolves it (story-format.md §2 stage 6): the op is what follows the
// last dot, so an interface name may hold dots (`iface.a.b.c` is op c of
// interface a.b) and an op never does. ok is false for an invoke that is
// no iface one, or has no dot after the name, or an empty name: upstream's
// "expected iface.<name>.<op>". An empty op (`iface.tk.`) is well formed
// and names no declared op. A template is not read: `iface.{{ x }}.get`
// names the interface "{{ x }}", which no story declares.
//
// An importer's fold renames a child's call by its first segment instead
// (pkg/fold), as upstream does.
func IfaceCall(invoke string) (name, op string, ok bool) {
	rest, found := strings.CutPrefix(invoke, "iface.")
	if !found {
		return "", "", false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}
