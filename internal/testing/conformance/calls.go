package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"kitsoki/pkg/flowtest"
)

// Dispatched is each harness.dispatched event's namespace and args, in
// order, with the ids in the args read as placeholders ([NoIDsIn]).
func Dispatched(evs []flowtest.ReportEvent) []map[string]any {
	return calls(evs, "harness.dispatched")
}

// calls is each event of kind's namespace and args, as [Dispatched].
func calls(evs []flowtest.ReportEvent, kind string) []map[string]any {
	var out []map[string]any
	for _, e := range evs {
		if e.Kind != kind {
			continue
		}
		var p struct {
			Namespace string         `json:"namespace"`
			Args      map[string]any `json:"args"`
		}
		if json.Unmarshal(e.Payload, &p) == nil {
			out = append(out, map[string]any{"namespace": p.Namespace, "args": NoIDsIn(p.Args)})
		}
	}
	return out
}

// callDiffs lists the calls of a turn made (harness.called: the args as
// the machine wrote them, an id raw) or dispatched with another handler
// or other args than upstream's, call by call in upstream's order (the
// walk holds both engines to that order already), ids read as
// placeholders and the arg keys in skipArgs (a golden's IGNORE_ARGS) left
// out; dir is the story's directory (absolute). A kind in skip is not
// compared.
func callDiffs(ge, we []flowtest.ReportEvent, skip, skipArgs map[string]bool, dir string) []string {
	var out []string
	for _, kind := range []string{"harness.called", "harness.dispatched"} {
		if skip[kind] {
			continue
		}
		g, w := calls(ge, kind), calls(we, kind)
		for i := range w {
			if i >= len(g) {
				break
			}
			for _, c := range []map[string]any{g[i], w[i]} {
				if args, ok := c["args"].(map[string]any); ok {
					for k := range skipArgs {
						delete(args, k)
					}
				}
			}
			if !sameArg(g[i], w[i], dir) {
				gj, _ := json.Marshal(g[i])
				wj, _ := json.Marshal(w[i])
				out = append(out, fmt.Sprintf("%s %d: %s, upstream %s", kind, i, gj, wj))
			}
		}
	}
	return out
}

// fixtureDir is the start of a path in a fixture's own working directory
// (pkg/flowtest's, one a fixture: docs/compat/flowtest.md), and what
// follows it.
var fixtureDir = regexp.MustCompile(`^` + regexp.QuoteMeta(filepath.Join(os.TempDir(), "kitsoki-flow-")) + `[0-9]+/(.+)$`)

// sameArg reports whether g, a value of our dispatched args, is w,
// upstream's, as a decoded JSON value: a path in our fixture's working
// directory or in the story's directory dir (or beside it) matches an
// absolute upstream path with the same rest (upstream ran the fixtures in
// the story's directory, wherever it was copied).
func sameArg(g, w any, dir string) bool {
	switch x := g.(type) {
	case map[string]any:
		y, ok := w.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if u, ok := y[k]; !ok || !sameArg(v, u, dir) {
				return false
			}
		}
		return true
	case []any:
		y, ok := w.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameArg(x[i], y[i], dir) {
				return false
			}
		}
		return true
	case string:
		y, ok := w.(string)
		// the story's directory, or its parent: a sibling story an import
		// reads (frontier_event's ../robbery) sits beside it
		for _, d := range []string{dir, filepath.Dir(dir)} {
			if rest, in := strings.CutPrefix(x, d+"/"); ok && in && filepath.IsAbs(y) {
				return strings.HasSuffix(y, "/"+rest)
			}
		}
		if m := fixtureDir.FindStringSubmatch(x); ok && m != nil && filepath.IsAbs(y) {
			return strings.HasSuffix(y, "/"+m[1])
		}
		return ok && x == y
	}
	return reflect.DeepEqual(g, w)
}
