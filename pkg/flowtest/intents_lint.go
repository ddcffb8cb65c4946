package flowtest

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// HasIntents reports whether a story keeps intent fixtures where `kitsoki
// test intents` looks by default (<story dir>/intents/*.yaml), listed
// through the project root: an intents directory a symlink leads out of
// counts, unlisted, whether its target exists or holds anything (listed
// through the link, an outside directory holding *.yaml files made
// validate and test fail and one holding none let them pass, so a
// repository learned what the machine's directories hold; red team 47).
func HasIntents(app string) bool {
	glob := filepath.Join(story.QuoteGlob(filepath.Dir(app)), "intents", "*.yaml")
	r := safefile.NewRoot(globRoot("", glob))
	defer r.Close()
	files, outside, err := story.Glob(r, glob)
	return err == nil && len(files)+len(outside) > 0
}

// LintIntentSources warns about what the intent fixtures beside a loaded
// story rely on that upstream does silently (docs/compat/flowtest.md),
// adding each file it read to sources; an unreadable file is left to
// `kitsoki test intents`.
func LintIntentSources(app string, st *story.Story, sources map[string][]byte) []diag.Diagnostic {
	if st == nil {
		return nil
	}
	if !HasIntents(app) {
		return nil
	}
	il := intentLint{ix: indexFolded(st)}
	rec := filepath.Join(filepath.Dir(app), "recording.yaml")
	if h, err := NewStaticHarness(st.ProjectRoot, rec); err == nil {
		il.rec, il.recorded = rec, h
	}
	// Listed and read through the project root, as test intents does: an
	// intents directory or file that a symlink leads out of the project
	// is an error naming it (flow-outside-root), refused unread, so no
	// finding quotes a byte of what it points at (nor lists its names).
	glob := filepath.Join(story.QuoteGlob(filepath.Dir(app)), "intents", "*.yaml")
	r := safefile.NewRoot(globRoot(st.ProjectRoot, glob))
	defer r.Close()
	files, outside, err := story.Glob(r, glob)
	if err != nil {
		return nil
	}
	if len(outside) > 0 {
		return []diag.Diagnostic{outsideDiag(r, "intents directory", outside[0], &os.PathError{Op: "read", Path: outside[0], Err: safefile.ErrOutsideRoot})}
	}
	slices.Sort(files)
	for _, f := range files {
		data, err := readIn(r, f)
		if errors.Is(err, safefile.ErrOutsideRoot) {
			sources[f] = nil // refused unread: the caller must not read it either
			il.ds = append(il.ds, outsideDiag(r, "intents file", f, err))
			continue
		}
		if errors.Is(err, safefile.ErrInGitDir) {
			sources[f] = nil
			il.ds = append(il.ds, diag.Diagnostic{File: f, Severity: diag.Error, Rule: ruleOutsideRoot.ID, Message: "intents file " + err.Error()})
			continue
		}
		if err != nil {
			continue
		}
		sources[f] = data
		il.file = f
		if r := il.refused(f, data); r != nil && r.Aliases {
			continue // what the lints below would walk is past the bound
		}
		for _, d := range mappingDocs(data) {
			// the keys test intents reads: merge keys expanded (a refused
			// merge is reported once, by refused, and its document skipped)
			if expandIntentMerges(f, piece{line: d.line}, d.root) != nil {
				continue
			}
			il.line = d.line
			il.doc(d.root)
		}
	}
	return il.ds
}

// refused warns where `kitsoki test intents` refuses file f (data): the
// run would stop there, and validate is where an author reads it first.
func (il *intentLint) refused(f string, data []byte) *IntentsRefusal {
	_, err := ParseIntents(f, data)
	var r *IntentsRefusal
	if !errors.As(err, &r) {
		return nil
	}
	il.ds = append(il.ds, diag.Diagnostic{File: f, Line: r.Line, Col: r.Col, Severity: ruleIntentsRefused.Severity, Rule: ruleIntentsRefused.ID,
		Message: r.Msg + "; kitsoki test intents refuses this file (as the existing engine's does where its decoder refuses it): fix it, or move it out of intents/"})
	return r
}

// intentLint is LintIntentSources' state.
type intentLint struct {
	ix   *storyIndex
	file string
	line int // the document's first line in the file, less one
	ds   []diag.Diagnostic
	// rec is the default recording, recorded its static harness (nil: none reads)
	rec      string
	recorded *StaticHarness
}

func (il *intentLint) warn(n *yaml.Node, r *diag.Rule, format string, args ...any) {
	il.ds = append(il.ds, diag.Diagnostic{File: il.file, Line: n.Line + il.line, Col: n.Column,
		Severity: r.Severity, Rule: r.ID, Message: fmt.Sprintf(format, args...)})
}

func (il *intentLint) doc(root *yaml.Node) {
	if k := yamlnode.Get(root, "test_kind"); k == nil || k.Value != "intents" {
		return
	}
	state := ""
	if s := yamlnode.Get(root, "state"); s != nil && s.Kind == yaml.ScalarNode {
		state = s.Value
		if i := strings.LastIndexByte(state, '#'); i >= 0 {
			il.configState(s, state, state[i+1:])
		} else if !il.ix.hasState(state) {
			what := "it handles no intent: every run of every input fails, as in the existing engine"
			if anc := il.ix.knownAncestor(state); anc != "" {
				what = fmt.Sprintf("its fixtures route as %q does (its intents and its ancestors'), as the existing engine does; if a state was renamed, name the state they are about", anc)
			}
			il.warn(s, ruleUnknownState, "state %q is not a state of the story%s; %s", state, il.ix.suggestState(state), what)
		}
	}
	fxs := yamlnode.Get(root, "fixtures")
	if fxs == nil || fxs.Kind != yaml.SequenceNode {
		return
	}
	for i, f := range fxs.Content {
		if f.Kind != yaml.MappingNode {
			continue
		}
		il.skipped(f, i, state)
		il.codes(f, i)
		if k := keyNode(f, "slots"); k != nil {
			il.warn(k, ruleIgnoredKey, "fixtures[%d].slots is read nowhere (the existing engine ignores it, so it compares nothing); put the expected slots under intent.slots", i)
		}
		in := yamlnode.Get(f, "intent")
		if in == nil || in.Kind != yaml.MappingNode {
			continue
		}
		name := yamlnode.Get(in, "name")
		if name == nil || name.Value == "" {
			il.warn(in, ruleUnknownIntent, "fixtures[%d].intent has no name: the answer's name is compared with \"\", so no answer passes (as in the existing engine); name the expected intent, or drop intent: to pass any answer that validates", i)
			continue
		}
		if !il.ix.intents[name.Value] {
			il.warn(name, ruleUnknownIntent, "fixtures[%d].intent.name %q is an intent the story neither declares nor handles%s", i, name.Value, didYouMean(name.Value, slices.Sorted(maps.Keys(il.ix.intents))))
		}
	}
}

// configState warns at a parallel configuration's state path (root#leaf|leaf)
// whose leaves are not all states of the story. Upstream reads only the
// leaves after the last "#", in the order written, and not the root: each
// routes as the state it names (an unknown one as its deepest known
// dotted prefix, else not at all), slot declarations above the first
// (conformance intents-conformance/parallel-state).
func (il *intentLint) configState(n *yaml.Node, state, leaves string) {
	var unknown []string
	if first, last := strings.IndexByte(state, '#'), strings.LastIndexByte(state, '#'); first != last {
		unknown = append(unknown, fmt.Sprintf("%q is not read (it is before the last \"#\")", state[first+1:last]))
	}
	routes := false
	for _, l := range strings.Split(leaves, "|") {
		switch anc := il.ix.knownAncestor(l); {
		case il.ix.states[l]:
			routes = true
		case anc != "":
			routes = true
			unknown = append(unknown, fmt.Sprintf("%q is no state (it routes as %q)", l, anc))
		default:
			unknown = append(unknown, fmt.Sprintf("%q is no state (it handles nothing)", l))
		}
	}
	if len(unknown) == 0 {
		return
	}
	what := "the other leaves route as they do"
	if !routes {
		what = "it handles no intent: every run of every input fails"
	}
	il.warn(n, ruleUnknownState, "state %q: %s; %s, as in the existing engine, which reads the leaves after the last \"#\" (not the root before it); name each leaf as the story has it", state, strings.Join(unknown, ", "), what)
}

// keyNode is the key node of key in the mapping n, nil when n has none.
func keyNode(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}

// skipped warns about a fixture none of whose inputs the default
// recording has: it passes without a run (intents-conformance/skipped-threshold).
func (il *intentLint) skipped(f *yaml.Node, i int, state string) {
	ins := yamlnode.Get(f, "inputs")
	if il.recorded == nil || !il.ix.hasState(state) || ins == nil || ins.Kind != yaml.SequenceNode || len(ins.Content) == 0 {
		return
	}
	if ef := yamlnode.Get(f, "expect_failure"); ef != nil && ef.ShortTag() != "!!null" {
		return // a miss is a passing run there
	}
	for _, c := range ins.Content {
		if in, err := inputText(c); err != nil || il.recorded.entries[staticKey(state, in)] != nil {
			return
		}
	}
	il.warn(ins, ruleNotChecked, "fixtures[%d]: %s has no entry for any of these inputs in state %q: the static harness skips each, and the fixture passes without a run (as in the existing engine); record them or fix the inputs", i, filepath.Base(il.rec), state)
}

// judgedCodes are the codes `kitsoki test intents` refuses an answer
// with (guards are not evaluated), and clarify, which matches any.
var judgedCodes = []string{engine.CodeNotAllowed, engine.CodeMissingSlots, engine.CodeInvalidSlot, "clarify"}

// codes warns about an expect_failure whose any_of lists no code an
// answer is ever refused with.
func (il *intentLint) codes(f *yaml.Node, i int) {
	ef := yamlnode.Get(f, "expect_failure")
	if ef == nil || ef.Kind != yaml.MappingNode {
		return
	}
	any := yamlnode.Get(ef, "any_of")
	if any == nil || any.Kind != yaml.SequenceNode || len(any.Content) == 0 {
		return
	}
	for _, c := range any.Content {
		if slices.Contains(judgedCodes, c.Value) {
			return
		}
	}
	il.warn(any, ruleNotChecked, "fixtures[%d].expect_failure.any_of lists no code a refused answer is given (test intents gives %s, and clarify matches any refusal): it passes only on recording misses and harness errors, as in the existing engine", i, strings.Join(judgedCodes[:3], ", "))
}
