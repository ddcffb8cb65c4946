package story

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
)

var importAliasRe = &lazyre.Regexp{Expr: `^[a-z][a-z0-9_]*$`}

// loadImports loads every imports: child recursively, reporting cycles with
// the chain of manifests. The child is kept unfolded in Import.Child.
func (l *loader) loadImports(st *Story, abs string, stack []string) {
	for _, alias := range st.ImportOrder {
		im := st.Imports[alias]
		if !importAliasRe.MatchString(alias) {
			l.rep.Errf(im.Pos, RuleImports, "imports.%s: alias must match ^[a-z][a-z0-9_]*$", alias)
		}
		if HasTop(st, alias) {
			l.rep.Errf(im.Pos, RuleImports, "imports.%s: alias collides with existing parent state of the same name", alias)
		}
		if strings.TrimSpace(im.Source) == "" {
			l.rep.Errf(im.At("source"), RuleImports, "imports.%s: source is required", alias)
			continue
		}
		childAbs, display, ok := l.resolveSource(st, im, alias)
		if !ok {
			continue
		}
		im.Path = display
		chain := append(append([]string{}, stack...), abs)
		if i := slices.Index(chain, childAbs); i >= 0 {
			names := append(slices.Clone(chain[i:]), childAbs)
			l.rep.Errf(im.At("source"), RuleImports, "imports.%s: cycle detected via %s", alias, strings.Join(names, " -> "))
			continue
		}
		if child, done := l.children[childAbs]; done {
			im.Child = child
			continue
		}
		if l.childStates > l.opts.loadedStates() {
			// The children loaded hold more states than a fold copies, each
			// being folded at least once: the tree is refused (FoldSize), and
			// reading the rest would cost time and memory for nothing.
			im.Unread = true
			continue
		}
		// A local source reads through the importer's root, @kitsoki/ its own.
		via := st.root
		if strings.HasPrefix(im.Source, "@kitsoki/") {
			via = l.rootFor(childAbs)
		}
		data, in, err := l.readIn(via, childAbs)
		if !in {
			l.outsideRoot(im.At("source"), via, "imports."+alias+": source", im.Source, err)
			continue
		}
		if err != nil {
			l.rep.Errf(im.At("source"), RuleImports, "imports.%s: %s: read: %s", alias, display, safefile.ErrText(err))
			continue
		}
		child := l.loadStory(display, childAbs, data, false, chain)
		l.children[childAbs] = child
		im.Child = child
		if child != nil {
			l.childStates = min(l.childStates+len(Flatten(child.States)), MaxFoldImportedStates+1)
			child.child = true
			child.importer = st
			// Checked once the whole tree is loaded, seeing every importer above.
			l.pending = append(l.pending, child)
		}
	}
}

// resolveSource maps an import source to the child manifest (abs, display).
func (l *loader) resolveSource(st *Story, im *Import, alias string) (string, string, bool) {
	src := im.Source
	var path string
	switch {
	case strings.HasPrefix(src, "@kitsoki/"):
		name := strings.TrimPrefix(src, "@kitsoki/")
		if name == "" || strings.ContainsAny(name, "/\\") || strings.Contains(name, "..") {
			l.rep.Errf(im.At("source"), RuleImports, "imports.%s: source %q: invalid @kitsoki name", alias, src)
			return "", "", false
		}
		repo := l.opts.KitsokiRepo
		if repo == "" {
			repo, _ = l.opts.Lookup("KITSOKI_REPO")
		}
		if repo != "" {
			path = filepath.Join(repo, "stories", name, StoryFile)
		} else if lib, ok := libraryStory(st, name); ok {
			path = lib
		} else {
			// Upstream falls back to the story library embedded in its binary,
			// which this toolchain does not carry: the child cannot be checked.
			l.rep.Warnf(im.At("source"), RuleImports, "imports.%s: source %q: cannot resolve @kitsoki/%s here (no $KITSOKI_REPO, and no stories/%s/app.yaml in a kitsoki checkout — .kitsoki-root marker or kitsoki go.mod — above %s; upstream falls back to the library embedded in its binary); the child is not checked", alias, src, name, name, st.Dir)
			return "", "", false
		}
	default:
		path = beside(st.Dir, src)
	}
	if !strings.HasPrefix(src, "@kitsoki/") {
		if _, in := st.root.Rel(filepath.Clean(path)); !in {
			l.outsideRoot(im.At("source"), st.root, "imports."+alias+": source", src, nil)
			return "", "", false
		}
	}
	path = ManifestPath(path)
	abs, _ := filepath.Abs(path)
	display := path
	if !filepath.IsAbs(src) && !strings.HasPrefix(src, "@") {
		display = filepath.Join(filepath.Dir(st.File), src)
		if !strings.HasSuffix(display, ".yaml") && !strings.HasSuffix(display, ".yml") {
			display = filepath.Join(display, StoryFile)
		}
	}
	return filepath.Clean(abs), display, true
}

// libraryStory is stories/NAME/app.yaml of the kitsoki checkout nearest
// at or above st.Dir (a .kitsoki-root marker, or the go.mod of module
// kitsoki), when that checkout holds it. Inside the story's project root
// the repository wrote every name: the marker is looked at by name, go.mod
// read through the root, and the child found through it, a symbolic link
// leading out counting as there (the read that follows refuses it), so
// what is reported is the same whatever lies behind such a link. Above
// the root, the operator's own checkout is looked at as it is.
func libraryStory(st *Story, name string) (string, bool) {
	for d := range Ancestors(st.Dir) {
		if !isKitsokiRoot(st.root, d) {
			continue
		}
		p := filepath.Join(d, "stories", name, StoryFile)
		if _, in := st.root.Rel(p); !in {
			fi, err := os.Stat(p)
			return p, err == nil && !fi.IsDir()
		}
		fi, err := st.root.Stat(p)
		return p, errors.Is(err, safefile.ErrOutsideRoot) || (err == nil && !fi.IsDir())
	}
	return "", false
}

// isKitsokiRoot says d holds .kitsoki-root or the go.mod of module kitsoki;
// inside root, the marker by its name and go.mod through the root.
func isKitsokiRoot(root *safefile.Root, d string) bool {
	marker, gomod := filepath.Join(d, ".kitsoki-root"), filepath.Join(d, "go.mod")
	var data []byte
	var err error
	if _, in := root.Rel(d); in {
		if _, err := os.Lstat(marker); err == nil {
			return true
		}
		data, err = root.ReadFile(gomod, safefile.Story)
	} else {
		if _, err := os.Stat(marker); err == nil {
			return true
		}
		data, err = safefile.ReadFile(gomod, safefile.Story)
	}
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(data)) {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			if m = strings.TrimSpace(m); m == "kitsoki" || strings.HasSuffix(m, "/kitsoki") {
				return true
			}
		}
	}
	return false
}
