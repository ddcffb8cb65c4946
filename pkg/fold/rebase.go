package fold

import (
	"os"
	"path/filepath"

	"kitsoki/pkg/story"
)

// rebase makes the child's relative prompt and schema with: paths (also
// under context and acceptance) absolute against its directory, as
// upstream's loader does; templates are left alone. overrides.prompts
// swaps a child prompt file for one of the parent's.
func (fs *folder) rebase(n, k *node) {
	rb := &rebaser{dir: k.orig.Dir, swap: map[string]string{}}
	if ov := k.im.Overrides; ov != nil {
		for rel, repl := range ov.Prompts {
			if !filepath.IsAbs(repl) {
				repl = filepath.Join(n.orig.Dir, repl)
			}
			rb.swap[filepath.Join(k.orig.Dir, rel)] = filepath.Clean(repl)
		}
	}
	for p := range (story.EffectWalk{}).States(story.Flatten(k.st.States)...) {
		if w := p.Effect.With; w != nil {
			rb.with(w)
			for _, sub := range []string{"context", "acceptance"} {
				if m, ok := w[sub].(map[string]any); ok {
					rb.with(m)
				}
			}
		}
	}
}

type rebaser struct {
	dir  string
	swap map[string]string // absolute child path -> parent replacement
}

func (rb *rebaser) with(m map[string]any) {
	for _, key := range []string{"prompt", "prompt_path", "schema"} {
		v, ok := m[key].(string)
		if !ok || v == "" || story.IsTemplated(v) {
			continue
		}
		abs := v
		if !filepath.IsAbs(v) {
			abs = filepath.Join(rb.dir, v)
		}
		if repl, ok := rb.swap[filepath.Clean(abs)]; ok {
			m[key] = repl
			continue
		}
		if filepath.IsAbs(v) {
			continue
		}
		// prompt: is inline text unless it names a file; the others always do.
		if key == "prompt" {
			if fi, err := os.Stat(abs); err != nil || !fi.Mode().IsRegular() {
				continue
			}
		}
		m[key] = abs
	}
}
