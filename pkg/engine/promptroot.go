package engine

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// promptRoots are the directories a prompt file may be read from: the
// story directory and the loader's roots (prompts overlay, prompts/,
// shared directories) — the same roots `validate` checks (rule
// prompt-root).
func promptRoots(dir string, l *expr.PongoLoader) []string {
	var roots []string
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			roots = append(roots, abs)
		}
	}
	// each once: the story directory is also one of the loader's, and
	// the refusal lists them
	seen := map[string]bool{}
	for _, r := range roots {
		seen[r] = true
	}
	for _, r := range l.Roots() {
		if !seen[r] {
			seen[r] = true
			roots = append(roots, r)
		}
	}
	return roots
}

// confine refuses a prompt file outside the story's roots (an absolute
// path, a "../" leaving them, a symlink pointing out): the run would send
// it to the plugin and write it into the trace.
func (p *PromptRenderer) confine(src promptSrc, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	if story.Confined(abs, p.roots) {
		return nil
	}
	return p.outside(src, abs)
}

// outside is confine's refusal of src, written as abs.
func (p *PromptRenderer) outside(src promptSrc, abs string) error {
	key := cmp.Or(src.key, "prompt")
	return fmt.Errorf("%s %q resolves to %s, outside the story's roots (%s): prompt files must live inside the story; move the file there", key, src.text, abs, strings.Join(p.roots, ", "))
}

// fileThere reports whether path, which confine let through, is a regular
// file, asked through the roots the file is read through
// (expr.PongoLoader.StatFile), never by path: a link leading out swapped
// in since confine (a job or hook running beside the story) is confine's
// refusal whether its target is a file, a directory or missing, where a
// stat by path told the three apart (the outside refusal, or the name
// sent as inline text).
func (p *PromptRenderer) fileThere(src promptSrc, path string) (bool, error) {
	if p.beforeStat != nil {
		p.beforeStat(path)
	}
	fi, err := p.loader.StatFile(path)
	if errors.Is(err, safefile.ErrOutsideRoot) || errors.Is(err, expr.ErrOutsideRoots) {
		abs, aerr := filepath.Abs(path)
		if aerr != nil {
			abs = path
		}
		return false, p.outside(src, abs)
	}
	return err == nil && fi.Mode().IsRegular(), nil
}

// writtenInside reports whether path, as written (no link followed), lies
// inside one of the story's roots: a prompt: there that confine refuses
// leads out through a link the repository itself holds.
func (p *PromptRenderer) writtenInside(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for _, root := range p.roots {
		if safefile.Within(root, abs) {
			return true
		}
	}
	return false
}
