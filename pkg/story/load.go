package story

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/panicked"
	"kitsoki/internal/recost"
	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// Options control a load.
type Options struct {
	// AllowUnsetEnv makes an unset ${VAR} a warning (CI lint without secrets).
	AllowUnsetEnv bool
	// LookupEnv resolves ${VAR}; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// NoEnv reads every ${VAR} (and api_key_env:) as set and empty, and
	// only KITSOKI_REPO from the environment: kitsoki test --sandbox and
	// validate under KITSOKI_SANDBOX start no plugin that needs the
	// values, and resolved, a finding (unset, too short to mask) or an
	// answer masked with them would tell a pull request about the job's
	// variables.
	NoEnv bool
	// KitsokiRepo is the checkout @kitsoki/ imports resolve in (--kitsoki-repo).
	KitsokiRepo string
	// wholeParse turns the state-by-state parse off, for tests.
	wholeParse bool
	// splitBatch, when set, is the batch size of that parse (in bytes).
	splitBatch int
	// maxNodes, when above 0, replaces yamlnode.MaxNodes as the floor of
	// each file's node budget, so a test proves a refusal without walking millions.
	maxNodes int
	// maxStoryBytes, when above 0, replaces safefile.StoryYAML as what a
	// story's manifest and include: files may total, for tests.
	maxStoryBytes int64
	// maxLoadedStates, when above 0, replaces MaxFoldImportedStates as the
	// states the loaded children may hold before the rest go unread, for tests.
	maxLoadedStates int
	// Overlay holds unsaved editor buffers by absolute path (kitsoki lsp).
	Overlay map[string][]byte
	// Root, when set, is the project root (--root); empty: [ProjectRoot].
	Root string
	// Trees are directories the operator named as trees of stories (DIR/...):
	// a story in one with no marker above it has the widest as its root.
	Trees []string
}

// StoryFile is the manifest name of a story directory.
const StoryFile = "app.yaml"

// ManifestPath is DIR/app.yaml for a directory, else path itself. A path
// named app.yaml is a manifest as written, never a directory: an app.yaml
// linked to a directory outside the project (validate ./... finds it) is
// refused by the load as a link leading out, the same words as a dangling
// one, instead of being followed to DIR/app.yaml/app.yaml, which told the
// repository that the target exists and is a directory.
func ManifestPath(path string) string {
	if filepath.Base(path) == StoryFile {
		return path
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, StoryFile)
	}
	return path
}

// nodeFloor is the floor of each file's node budget and what aliases may
// add to a whole story: yamlnode.MaxNodes but in a test.
func (o Options) nodeFloor() int { return cmp.Or(max(o.maxNodes, 0), yamlnode.MaxNodes) }

// storyBytes is what a story's manifest and its include: files may
// total: one file's cap, so that splitting a story into include files
// costs no more memory than one file of it.
func (o Options) storyBytes() int64 { return cmp.Or(max(o.maxStoryBytes, 0), safefile.StoryYAML) }

// loadedStates is the states a load's imported children may hold before
// the loader reads no more of them: MaxFoldImportedStates but in a test.
func (o Options) loadedStates() int { return cmp.Or(max(o.maxLoadedStates, 0), MaxFoldImportedStates) }

func (o Options) Lookup(name string) (string, bool) {
	if o.NoEnv && name != "KITSOKI_REPO" {
		return "", true
	}
	if o.LookupEnv != nil {
		return o.LookupEnv(name)
	}
	return os.LookupEnv(name)
}

// Load loads a story directory or an app.yaml path, returning the model
// (nil only when nothing usable parsed) and all diagnostics, sorted.
func Load(path string, opts Options) (*Story, []diag.Diagnostic) {
	l := newLoader(opts)
	return l.guarded(path, func() *Story {
		manifest := ManifestPath(path)
		abs, _ := filepath.Abs(manifest)
		if !l.storyInRoot(manifest, abs) {
			return nil
		}
		// Through its own root: a symlinked app.yaml leading out is refused unread.
		data, in, err := l.readIn(l.rootFor(abs), abs)
		if !in {
			l.outsideRoot(Pos{File: manifest}, l.rootFor(abs), "story manifest", manifest, err)
			return nil
		}
		if err != nil {
			why := safefile.ErrText(err)
			if target, lerr := os.Readlink(manifest); lerr == nil && errors.Is(err, fs.ErrNotExist) {
				why = fmt.Sprintf("it links to %s, which does not exist; restore the target or fix the link", target)
			}
			l.rep.Errf(Pos{File: manifest}, RuleIO, "cannot read story manifest: %s", why)
			return nil
		}
		return l.loadTop(manifest, abs, data)
	})
}

// newLoader makes the loader of one load, its tables empty.
func newLoader(opts Options) *loader {
	return &loader{opts: opts, rep: &yamlnode.Reporter{}, sources: map[string][]byte{},
		roots: map[string]*safefile.Root{}, children: map[string]*Story{}}
}

// guarded runs load and returns its story with every diagnostic, sorted,
// closing the load's roots; a panic is reported as an internal error.
func (l *loader) guarded(file string, load func() *Story) (st *Story, ds []diag.Diagnostic) {
	defer l.closeRoots()
	defer func() {
		if r := recover(); r != nil {
			l.rep.Errf(Pos{File: file}, RuleInternal, "%s", panicked.Logged(os.Stderr, "loading the story", "the loader", r))
			st = nil
		}
		ds = diag.Sort(l.rep.Diags)
	}()
	return load(), nil
}

func (l *loader) loadTop(manifest, abs string, data []byte) *Story {
	st := l.loadStory(manifest, abs, data, true, nil)
	if st != nil {
		st.sources = l.sources
		st.children = l.pending
	}
	return st
}

// LoadSource loads a story whose manifest is at path but whose bytes are
// data (an editor's buffer, `kitsoki validate -`), as Load would.
func LoadSource(path string, data []byte, opts Options) (*Story, []diag.Diagnostic) {
	l := newLoader(opts)
	return l.guarded(path, func() *Story {
		abs, _ := filepath.Abs(path)
		if !l.storyInRoot(path, abs) {
			return nil
		}
		return l.loadTop(path, abs, data)
	})
}

// storyInRoot reports, and says false, when --root does not hold the story.
func (l *loader) storyInRoot(manifest, abs string) bool {
	if l.opts.Root == "" {
		return true
	}
	r := l.rootFor(abs)
	if _, ok := r.Rel(abs); ok {
		return true
	}
	l.rep.Errf(Pos{File: manifest}, RuleOutsideRoot, "the story is outside the project root %s given by --root: pass a --root that holds it, or omit --root to use the nearest directory above the story holding .git or .kitsoki/", r.Dir())
	return false
}

// loader is the state of one Load call (no globals).
type loader struct {
	opts Options
	rep  *yamlnode.Reporter
	// children caches loaded imports by canonical path.
	children map[string]*Story
	// pending lists the loaded children still to check, deepest first.
	pending []*Story
	// root is the top story's project root; roots every root by directory.
	root  *safefile.Root
	roots map[string]*safefile.Root
	// sources holds every parsed file's bytes by display name (Story.Source).
	sources map[string][]byte
	// aliasSpent is what alias expansion spent of the load's node budget.
	aliasSpent int
	// childStates counts the states of the children loaded, each once.
	childStates int
	// patterns is the regexp budget of the story and its children.
	patterns *recost.Budget
}

// loadStory parses a manifest and its include: files into a Story, loads
// imports and indexes states. stack holds the importers, for cycles.
func (l *loader) loadStory(display, abs string, data []byte, top bool, stack []string) *Story {
	fd, p := l.parseFileDoc(display, abs, data, false)
	if fd == nil {
		return nil
	}
	st := fd.st
	st.File = display
	st.Dir = filepath.Dir(abs)
	st.root = l.rootFor(abs)
	st.ProjectRoot = st.root.Dir()
	if l.patterns == nil {
		l.patterns = recost.NewBudget()
	}
	st.patterns = l.patterns
	st.Manifests = []string{display}
	st.rootNode = fd.rootNode
	if fd.rootNode != nil {
		if d := yamlnode.Deref(fd.rootNode); d != nil && d.Kind == yaml.ScalarNode && goTypeName(d) != "<nil>" {
			// upstream decodes root into an interface: a number or bool is no name
			p.Errf(p.Pos(fd.rootNode), RuleRoot, "root: unsupported value type %s; expected a state name string (quote it)", goTypeName(d))
		} else if d != nil && d.Kind != yaml.ScalarNode {
			if d.Kind == yaml.MappingNode {
				p.Warnf(p.Pos(fd.rootNode), RuleRoot, "root: an inline state mapping is accepted by the decoder but not supported by the engine; use a state name")
			} else {
				p.Errf(p.Pos(fd.rootNode), RuleRoot, "root: unsupported value type %s; expected a state name string", goTypeName(d))
			}
		}
	}
	l.confinePrompts(st)
	l.mergeIncludes(st, display)
	mark := len(l.rep.Diags)
	l.resolvePlugins(st, fd)
	l.resolveProviders(st)
	if !top {
		// Upstream never folds, so never validates, a child's plugins/providers;
		// it still decodes the child's agent_plugins strictly, so a key, type
		// or duplicate it cannot decode fails the load there too.
		for i := mark; i < len(l.rep.Diags); i++ {
			if !childPluginShape[l.rep.Diags[i].Rule] {
				diag.Demote(l.rep.Diags[i:i+1], "ignored in an imported child: upstream does not fold its agent_plugins/providers")
			}
		}
	}
	l.loadImports(st, abs, stack)
	st.index()
	return st
}

// childPluginShape holds the rules of what upstream's strict decode of an
// imported child's agent_plugins: refuses.
var childPluginShape = map[string]bool{RuleType.ID: true, RuleUnknownKey.ID: true, RuleDuplicateKey.ID: true}

// yaml12Directive turns a leading "%YAML 1.2" directive, which upstream
// accepts and yaml.v3 rejects, into a comment of the same length.
func yaml12Directive(data []byte) []byte {
	rest := data
	for off := 0; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		t := bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(t, []byte("%YAML 1.")) && !bytes.HasPrefix(t, []byte("%YAML 1.1")):
			out := bytes.Clone(data)
			out[off+bytes.IndexByte(line, '%')] = '#'
			return out
		case len(t) == 0, t[0] == '#', t[0] == '%', bytes.HasPrefix(t, []byte("\xef\xbb\xbf")):
		default:
			return data // the first content line: no directive before it
		}
		off += len(line)
		rest = rest[len(line):]
	}
	return data
}

// findTab returns the line and column of the first tab in an indentation.
func findTab(data []byte) (int, int) {
	for i, line := range bytes.Split(data, []byte("\n")) {
		for j, c := range line {
			if c == '\t' {
				return i + 1, j + 1
			}
			if c != ' ' {
				break
			}
		}
	}
	return 0, 0
}

func goTypeName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "[]interface {}"
	case yaml.MappingNode:
		return "map[string]interface {}"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!int":
			return "uint64"
		case "!!float":
			return "float64"
		case "!!bool":
			return "bool"
		}
	}
	return "<nil>"
}

// index builds the path index and the wrapper states of imports.
func (s *Story) index() {
	all := Flatten(s.States)
	s.byPath = make(map[string]*State, len(all)+len(s.ImportOrder))
	for _, st := range all {
		st.story = s
		if _, dup := s.byPath[st.Path]; !dup {
			s.byPath[st.Path] = st
		}
	}
	for _, alias := range s.ImportOrder {
		im := s.Imports[alias]
		if _, exists := s.byPath[alias]; exists {
			continue
		}
		w := &State{Name: alias, Path: alias, Type: "compound", More: &StateMore{Initial: im.Entry}, Import: im, Pos: im.Pos,
			Intents: map[string]*Intent{}, Keys: map[string]Pos{}, story: s}
		s.byPath[alias] = w
	}
	s.worldByID = map[string]*WorldVar{}
	for _, w := range s.World {
		if _, dup := s.worldByID[w.Name]; !dup {
			s.worldByID[w.Name] = w
		}
	}
	s.phaseGen = phaseGeneratedNames(s)
}

// State returns the state at a dotted absolute path ("a.b" or "a/b"), or nil.
func (s *Story) State(path string) *State {
	if s == nil {
		return nil
	}
	return s.byPath[strings.ReplaceAll(path, "/", ".")]
}

// Var returns the world variable named name, or nil.
func (s *Story) Var(name string) *WorldVar {
	if s == nil {
		return nil
	}
	return s.worldByID[name]
}

// AllStates returns every state depth first (import wrappers excluded).
func (s *Story) AllStates() []*State { return Flatten(s.States) }

// Flatten returns the states of list and their subtrees depth first.
func Flatten(list []*State) []*State {
	out := make([]*State, 0, countStates(list))
	var walk func(list []*State)
	walk = func(list []*State) {
		for _, st := range list {
			out = append(out, st)
			walk(st.Children)
		}
	}
	walk(list)
	return out
}

// countStates counts a tree's states, to allocate lists at their size.
func countStates(list []*State) int {
	n := len(list)
	for _, st := range list {
		n += countStates(st.Children)
	}
	return n
}

// IsTemplated reports whether s holds a template ({{ or {%).
func IsTemplated(s string) bool {
	return strings.Contains(s, "{{") || strings.Contains(s, "{%")
}
