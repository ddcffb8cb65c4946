package lint

import (
	"regexp"
	"slices"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var rulePrebindView = &Rule{ID: "prebind-view", Severity: diag.Warning, LintOnly: true,
	Summary: "a state's view reads a key its own on_enter binds, with no ?? or | default fallback: a frame drawn before the bind renders the key's schema default (the existing engine's validate warns the same)",
	Example: "a: {view: \"{{ world.out }}\", on_enter: [{invoke: host.run, bind: {out: stdout}}]}"}

// prebindRef matches a world reference as upstream's check reads it: the
// dotted path after world. (world.out.x is the path out.x, not out), or a
// quoted key in brackets (world['out'] is out, whatever follows).
var prebindRef = regexp.MustCompile(`world\.([A-Za-z0-9_.]+)|world\[["']([^"']+)["']\]`)

// prebindFallback is what may follow a reference to make it safe: a ??
// fallback or a default filter (default, default_if_none, ...).
var prebindFallback = regexp.MustCompile(`^\s*(\?\?|\|\s*default)`)

// checkPrebindView warns, once per state and key (sorted by key), where a
// state's view reads a key that one of its own on_enter effects binds
// (on_complete and nested effects included, guarded or not) without a
// fallback: the existing engine's validate logs "view references an
// on_enter bind-target without a fallback" for the same places. The text
// scanned is upstream's: a string view, and the prose, heading, code,
// template and banner text elements (blocks of an extends view too);
// list, kv, media and choice bodies and view when: guards are not read,
// and neither are arc effects' binds.
func checkPrebindView(c *checker) {
	for _, s := range c.states() {
		if s.View == nil || len(s.OnEnter) == 0 {
			continue
		}
		bound := map[string]bool{}
		var binds func([]*story.Effect)
		binds = func(list []*story.Effect) {
			for _, e := range list {
				if e == nil {
					continue
				}
				for _, kv := range e.Bind() {
					bound[kv.Key] = true
				}
				binds(e.OnComplete())
				binds(e.Effects())
			}
		}
		binds(s.OnEnter)
		if len(bound) == 0 {
			continue
		}
		first := map[string]story.Pos{}
		scan := func(text string, at story.Pos) {
			for _, m := range prebindRef.FindAllStringSubmatchIndex(text, -1) {
				key := ""
				if m[2] >= 0 {
					key = text[m[2]:m[3]]
				} else {
					key = text[m[4]:m[5]]
				}
				if !bound[key] || prebindFallback.MatchString(text[m[1]:]) {
					continue
				}
				if _, seen := first[key]; !seen {
					first[key] = at
				}
			}
		}
		elements := func(els []*story.ViewElement) {
			for _, el := range els {
				if el == nil {
					continue
				}
				at := el.TextPos
				if at.Line == 0 {
					at = el.Pos
				}
				switch el.Kind {
				case "prose", "heading", "code", "template":
					scan(el.Text, at)
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
		keys := make([]string, 0, len(first))
		for k := range first {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c.rep.Warnf(first[k], rulePrebindView, "state %q: view references an on_enter bind-target without a fallback (world.%s); a pre-bind frame would render its schema default: add a `?? \"(pending)\"` fallback or rely on the post-bind re-render", s.Path, k)
		}
	}
}
