package lint

import (
	"slices"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var rulePrebindView = &Rule{ID: "prebind-view", Severity: diag.Warning, LintOnly: true,
	Summary: "a state's view reads a key its own on_enter binds, with no ?? or | default fallback: a frame drawn before the bind renders the key's schema default (the existing engine's validate warns the same)",
	Example: "a: {view: \"{{ world.out }}\", on_enter: [{invoke: host.run, bind: {out: stdout}}]}"}

// prebindRef matches a world reference as upstream's check reads it: the
// dotted path after world., or a quoted key in brackets.
var prebindRef = &lazyre.Regexp{Expr: `world\.([A-Za-z0-9_.]+)|world\[["']([^"']+)["']\]`}

// prebindFallback is what may follow a reference to make it safe.
var prebindFallback = &lazyre.Regexp{Expr: `^\s*(\?\?|\|\s*default)`}

// checkPrebindView warns, once per state and key, where a state's view
// reads a key its own on_enter binds without a fallback, as the existing
// engine's validate does.
func checkPrebindView(c *checker) {
	for _, s := range c.states() {
		if s.View == nil || len(s.OnEnter) == 0 {
			continue
		}
		bound := map[string]bool{}
		for p := range (story.EffectWalk{}).States(s) {
			for _, kv := range p.Effect.Bind() {
				if p.Within("on_enter") {
					bound[liftWorldKey(c.st, kv.Key)] = true
				}
			}
		}
		if len(bound) == 0 {
			continue
		}
		type ref struct {
			at      story.Pos
			written string
		}
		first := map[string]ref{}
		scan := func(text string, at story.Pos) {
			for _, m := range prebindRef.Get().FindAllStringSubmatchIndex(text, -1) {
				written, key := "", ""
				if m[2] >= 0 {
					written = text[m[2]:m[3]]
					key = liftWorldKey(c.st, written)
				} else { // the fold leaves world['k'] as written
					written = text[m[4]:m[5]]
					key = written
				}
				if !bound[key] || prebindFallback.MatchString(text[m[1]:]) {
					continue
				}
				if _, seen := first[key]; !seen {
					first[key] = ref{at, written}
				}
			}
		}
		elements := func(els []*story.ViewElement) {
			for _, el := range els {
				if el == nil {
					continue
				}
				switch el.Kind {
				case "prose", "heading", "code", "template":
					scan(el.Text, or(el.TextPos, el.Pos))
				case "banner":
					if b, ok := el.Body.(map[string]any); ok {
						if t, ok := b["text"].(string); ok {
							scan(t, el.Pos)
						}
					}
				}
			}
		}
		v := s.View
		switch v.Kind {
		case "template":
			scan(v.Template, v.Pos)
		case "elements":
			elements(v.Elements)
		case "extends":
			for _, name := range v.BlockOrder {
				elements(v.Blocks[name])
			}
		}
		for _, k := range sortedMapKeys(first) {
			name := first[k].written
			if name != k {
				name += ", " + k + " once imported"
			}
			c.rep.WarnAt(first[k].at, diag.StatePlace(s.Path), rulePrebindView, "state %q: view references an on_enter bind-target without a fallback (world.%s); a pre-bind frame would render its schema default: add a `?? \"(pending)\"` fallback or rely on the post-bind re-render", s.Path, name)
		}
	}
}

// liftWorldKey is the name a world key path of st takes once folded into
// its importers: each level that declares its first segment puts its
// alias and "__" in front (out → c__out).
func liftWorldKey(st *story.Story, path string) string {
	for cur := st; cur != nil && cur.Importer() != nil; cur = cur.Importer() {
		alias := importAlias(cur)
		if alias == "" {
			break
		}
		if seg, _, _ := strings.Cut(path, "."); declares(cur, "world", seg) || lifted(cur, "world", seg) {
			path = alias + "__" + path
		}
	}
	return path
}

// importAlias is the first alias under which st's importer imports it, ""
// when none names it.
func importAlias(st *story.Story) string {
	imp := st.Importer()
	if i := slices.IndexFunc(imp.ImportOrder, func(a string) bool { return imp.Imports[a] != nil && imp.Imports[a].Child == st }); i >= 0 {
		return imp.ImportOrder[i]
	}
	return ""
}
