package story

import (
	"strings"
	"testing"
)

// FuzzIfaceCall: IfaceCall is a round trip of `iface.<name>.<op>` for any
// non-empty name and any op without a dot, and what it reads back from any
// invoke rebuilds that invoke; an invoke it refuses lacks the prefix, a
// name or the dot before the op.
func FuzzIfaceCall(f *testing.F) {
	for _, s := range []string{"iface.tk.get", "iface.a.b.c", "iface.tk.", "iface..get", "iface.tk", "iface.", "host.run",
		"iface.{{ x }}.get", "iface.a..b", "iface...", "iface.ticket_tracker.create_issue"} {
		f.Add(s, "name.x", "op")
	}
	f.Fuzz(func(t *testing.T, invoke, name, op string) {
		n, o, ok := IfaceCall(invoke)
		rest, pre := strings.CutPrefix(invoke, "iface.")
		switch {
		case ok && ("iface."+n+"."+o != invoke || n == "" || strings.Contains(o, ".")):
			t.Fatalf("%q read as name %q, op %q", invoke, n, o)
		case !ok && pre && strings.LastIndexByte(rest, '.') > 0:
			t.Fatalf("%q refused: it has a name and a dot before its op", invoke)
		}
		if name == "" || strings.Contains(op, ".") {
			return
		}
		if n, o, ok := IfaceCall("iface." + name + "." + op); !ok || n != name || o != op {
			t.Fatalf("name %q, op %q read back as %q, %q, %v", name, op, n, o, ok)
		}
	})
}
