package view

import (
	"fmt"
	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// pongo2 compiles a literal {% include %} / {% extends %} / {% import %}
// target while compiling the template that names it, with no depth limit:
// a template that includes itself (directly or through others) recurses
// until the Go stack overflows, which kills the process. Before anything
// is compiled, the renderer follows those literal names through the same
// search path and refuses a cycle or a chain deeper than maxIncludeDepth.

const (
	maxIncludeDepth = 32
	maxIncludeFiles = 512
	maxTemplateFile = 4 << 20
)

var includeRe = &lazyre.Regexp{Expr: `\{%-?\s*(include|extends|import)\s+(?:"([^"]*)"|'([^']*)')`}

// includeNames lists the literal template names src includes, extends or
// imports.
func includeNames(src string) []string {
	var out []string
	for _, m := range includeRe.FindAllStringSubmatch(src, -1) {
		name := m[2]
		if name == "" {
			name = m[3]
		}
		if name != "" {
			out = append(out, name)
		}
	}
	return out
}

// resolveInclude finds the file a name written in the template at base
// ("" for a template held in the story) means, as the loader would: a
// namespace, then the search directories, then the including file's
// directory. "" when nothing exists.
func (dl *dirLoader) resolveInclude(base, name string) string {
	if filepath.IsAbs(name) {
		return ""
	}
	var cands []string
	switch {
	case strings.HasPrefix(name, "@story/"):
		cands = append(cands, filepath.Join(dl.dir, filepath.FromSlash(strings.TrimPrefix(name, "@story/"))))
	case strings.HasPrefix(name, "@"):
		for prefix, dirs := range dl.ns {
			if rest, ok := strings.CutPrefix(name, prefix+"/"); ok {
				for _, d := range dirs {
					cands = append(cands, filepath.Join(d, filepath.FromSlash(rest)))
				}
			}
		}
	default:
		for _, d := range dl.dirs {
			cands = append(cands, filepath.Join(d, filepath.FromSlash(name)))
		}
		if base != "" {
			cands = append(cands, filepath.Join(filepath.Dir(base), filepath.FromSlash(name)))
		}
	}
	for _, c := range cands {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	return ""
}

// checkIncludes follows the literal include graph from a template (src
// held in the story when file is "", else the file at file) and returns
// an error naming the chain when it loops or is too deep.
func (dl *dirLoader) checkIncludes(src, file string) error {
	if file != "" {
		dl.mu.Lock()
		err, ok := dl.cycles[file]
		dl.mu.Unlock()
		if ok {
			return err
		}
	} else if !strings.Contains(src, "{%") {
		return nil
	}
	seen := 0
	var walk func(src, file string, chain []string) error
	walk = func(src, file string, chain []string) error {
		if len(chain) > maxIncludeDepth {
			return fmt.Errorf("templates include each other more than %d deep (%s); break the chain", maxIncludeDepth, strings.Join(chain, " -> "))
		}
		for _, name := range includeNames(src) {
			p := dl.resolveInclude(file, name)
			if p == "" {
				continue // the loader reports what cannot be found
			}
			if slices.Contains(chain, p) {
				return fmt.Errorf("template %s includes itself (%s -> %s); pongo2 would recurse forever", p, strings.Join(chain, " -> "), p)
			}
			if seen++; seen > maxIncludeFiles {
				return fmt.Errorf("templates include more than %d files; simplify the layout", maxIncludeFiles)
			}
			b, err := safefile.ReadFile(p, maxTemplateFile)
			if err != nil {
				continue
			}
			if err := walk(string(b), p, append(append([]string(nil), chain...), p)); err != nil {
				return err
			}
		}
		return nil
	}
	var chain []string
	if file != "" {
		b, err := safefile.ReadFile(file, maxTemplateFile)
		if err != nil {
			return nil
		}
		src, chain = string(b), []string{file}
	} else {
		chain = []string{"<view>"}
	}
	err := walk(src, file, chain)
	if file != "" {
		dl.mu.Lock()
		dl.cycles[file] = err
		dl.mu.Unlock()
	}
	return err
}
