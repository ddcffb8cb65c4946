package fold

import (
	"path/filepath"

	"kitsoki/pkg/story"
)

// rebase makes an effect's relative prompt and schema with: paths (also
// under context and acceptance) absolute against the directory of the
// story that wrote them, as upstream's loader does at each import level;
// templates are left alone. An import's overrides.prompts swaps a child
// prompt file for one of its importer's.
func (rw *rewriter) rebase(with map[string]any) {
	rw.rebaseWith(with)
	for _, sub := range []string{"context", "acceptance"} {
		if m, ok := with[sub].(map[string]any); ok {
			rw.rebaseWith(m)
		}
	}
}

func (rw *rewriter) rebaseWith(m map[string]any) {
	for _, key := range []string{"prompt", "prompt_path", "schema"} {
		v, ok := m[key].(string)
		if !ok || v == "" || story.IsTemplated(v) {
			continue
		}
		// Once absolute, only a swap above can change it.
		for x := rw.m; x.im != nil && (x.swap || !filepath.IsAbs(v)); x = x.parent {
			v = x.rebase(v)
		}
		m[key] = v
	}
}

// rebase is v as level x's rebase leaves it.
func (x *node) rebase(v string) string {
	abs := v
	if !filepath.IsAbs(v) {
		abs = filepath.Join(x.orig.Dir, v)
	}
	if ov := x.im.Overrides; ov != nil && len(ov.Prompts) > 0 {
		if x.swaps == nil {
			x.swaps = map[string]string{}
			for rel, repl := range ov.Prompts {
				if !filepath.IsAbs(repl) {
					repl = filepath.Join(x.parent.orig.Dir, repl)
				}
				x.swaps[filepath.Join(x.orig.Dir, rel)] = filepath.Clean(repl)
			}
		}
		if repl, ok := x.swaps[filepath.Clean(abs)]; ok {
			return repl
		}
	}
	// every relative value, a prompt: of inline text too (upstream's loader
	// joins it whatever it is: conformance child-prompt-rebased)
	return abs
}
