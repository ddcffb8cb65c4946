package flowtest

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/panicked"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/engine"
)

// Update is what `kitsoki test --update` would change: the fixture files
// rewritten, and the failing fixtures it left alone, with the reason.
type Update struct {
	Files   []*FileUpdate
	Refused []Refusal
	// Fixtures and Changes count the fixtures updated and the
	// expectations changed; after [Runner.WriteUpdate], only those of
	// the files written.
	Fixtures, Changes int
	// Unwritten counts the files WriteUpdate could not write.
	Unwritten int
}

// FileUpdate is one fixture file's new content.
type FileUpdate struct {
	Path     string
	Story    string // the app.yaml its fixtures run against
	Old, New []byte
	fixtures int    // the fixtures of the file it updates
	changes  int    // the expectations it rewrites
	edits    []edit // sorted, disjoint
}

// Refusal is a failing fixture --update did not change.
type Refusal struct {
	Fixture string
	Pos     Pos
	Reason  string
}

// change is one planned rewrite: the value at path in the fixture's
// document becomes want.
type change struct {
	path []step
	want any
	pos  Pos
	what string
}

// Update plans the rewrite of the failing fixtures of files from results
// (a run with Options.Observe): a fixture is changed only when every
// failure is one --update rewrites (updatable) and it then passes a run;
// otherwise it is refused. Nothing is written: see [Runner.WriteUpdate].
func (r *Runner) Update(ctx context.Context, files []*File, results []*Result) *Update {
	byName := map[string]*Result{}
	for _, res := range results {
		byName[res.Name] = res
	}
	u := &Update{}
	for _, f := range files {
		u.guarded(ctx, r, f, byName)
	}
	return u
}

// guarded is file, a panic refusing the file's fixtures.
func (u *Update) guarded(ctx context.Context, r *Runner, f *File, byName map[string]*Result) {
	before := *u // what the file's own plans are dropped back to
	defer func() {
		if p := recover(); p != nil {
			*u = before
			pe := panicked.Logged(r.stderr(), "updating "+f.Path, "the fixture rewriter", p) // the stack once for the file
			for _, fx := range f.Fixtures {
				if res := byName[fx.Name()]; res != nil && !res.Passed() {
					u.refuse(fx, fx.Pos, "%s; nothing was changed in it", pe)
				}
			}
		}
	}()
	u.file(ctx, r, f, byName)
}

func (u *Update) file(ctx context.Context, r *Runner, f *File, byName map[string]*Result) {
	var failing []*Fixture
	for _, fx := range f.Fixtures {
		if res := byName[fx.Name()]; res != nil && !res.Passed() && (res.Flow == nil || !res.Flow.Skipped) {
			failing = append(failing, fx)
		}
	}
	if len(failing) == 0 {
		return
	}
	src, err := readBounded(f.Path)
	if err != nil {
		for _, fx := range failing {
			u.refuse(fx, fx.Pos, "%v", err)
		}
		return
	}
	docs := flowDocs(src)
	type planned struct {
		fx      *Fixture
		edits   []edit
		changes int
	}
	var plans []planned
	for _, fx := range failing {
		res := byName[fx.Name()]
		if fx.Doc < 1 || fx.Doc > len(docs) {
			u.refuse(fx, fx.Pos, "the file changed while the fixtures ran; run again")
			continue
		}
		chs, pos, err := plan(fx, res)
		if err != nil {
			u.refuse(fx, pos, "%v", err)
			continue
		}
		edits, changes, pos, err := docs[fx.Doc-1].edits(fx, chs)
		if err != nil {
			u.refuse(fx, pos, "%v", err)
			continue
		}
		if len(edits) == 0 {
			u.refuse(fx, fx.Pos, "it fails, but every expectation --update rewrites already holds; see the failures above")
			continue
		}
		plans = append(plans, planned{fx, edits, changes})
	}
	if len(plans) == 0 {
		return
	}
	// Run the updated fixtures again: only those that now pass are kept.
	var all []edit
	for _, p := range plans {
		all = append(all, p.edits...)
	}
	again := reparse(f, applyEdits(src, all))
	var keep []edit
	fu := &FileUpdate{Path: f.Path, Story: f.Story, Old: src}
	for _, p := range plans {
		fx2 := again[p.fx.Doc]
		if fx2 == nil {
			u.refuse(p.fx, p.fx.Pos, "the updated fixture does not parse; edit it by hand")
			continue
		}
		res := r.RunFixture(ctx, fx2)
		if !res.Passed() {
			why := "it does not pass"
			if res.Fatal != nil {
				why = res.Fatal.Message
			} else if len(res.Failures) > 0 {
				why = res.Failures[0].Message
			}
			u.refuse(p.fx, p.fx.Pos, "it would still fail after the update (%s); nothing was changed in it", firstLine(why))
			continue
		}
		keep = append(keep, p.edits...)
		fu.changes += p.changes
		fu.fixtures++
		u.Fixtures++
		u.Changes += p.changes
	}
	if len(keep) == 0 {
		return
	}
	slices.SortFunc(keep, byStart)
	fu.New, fu.edits = applyEdits(src, keep), keep
	u.Files = append(u.Files, fu)
}

func (u *Update) refuse(fx *Fixture, p Pos, format string, a ...any) {
	u.Refused = append(u.Refused, Refusal{Fixture: fx.Name(), Pos: p, Reason: fmt.Sprintf(format, a...)})
}

// reparse parses a fixture file's new content: its flow documents by number.
func reparse(f *File, data []byte) map[int]*Fixture {
	fxs, _ := parse(f.Path, data)
	out := map[int]*Fixture{}
	for _, fx := range fxs {
		fx.Story = f.Story
		out[fx.Doc] = fx
	}
	return out
}

// flowDocs are the flow documents of a file, as parse numbers them.
func flowDocs(src []byte) []*srcDoc {
	var out []*srcDoc
	for _, s := range mappingDocs(src) {
		if k := lastGet(s.root, "test_kind"); k != nil && k.Kind == yaml.ScalarNode && k.Value == "flow" {
			out = append(out, s)
		}
	}
	return out
}

// mappingDocs are the documents of a file that parse as mappings.
func mappingDocs(src []byte) []*srcDoc {
	starts := lineStarts(src)
	var out []*srcDoc
	for i, pc := range split(src) {
		var n yaml.Node
		if yamlnode.UnmarshalPlain(pc.src, &n) != nil || len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
			continue
		}
		out = append(out, &srcDoc{src: src, root: n.Content[0], index: i, line: pc.line, colOff: pc.colOff, starts: starts})
	}
	return out
}

// lastGet is the value of key in mapping n (of a repeated key the later); nil when absent.
func lastGet(n *yaml.Node, key string) *yaml.Node {
	var v *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i].Tag != "!!merge" {
			v = n.Content[i+1]
		}
	}
	return v
}

func (s *srcDoc) edits(fx *Fixture, chs []change) ([]edit, int, Pos, error) {
	var out []edit
	changes := 0
	for _, ch := range chs {
		n, flow, err := s.node(ch.path)
		var es []edit
		if err == nil {
			es, err = s.rewrite(n, ch.path, ch.want, flow)
		}
		if err != nil {
			return nil, 0, s.sharedAt(n, err, ch.pos), fmt.Errorf("%s: %v", ch.what, err)
		}
		if len(es) == 0 {
			continue
		}
		out = append(out, es...)
		changes++
	}
	slices.SortFunc(out, byStart)
	for i := 1; i < len(out); i++ {
		if out[i].start < out[i-1].end {
			return nil, 0, fx.Pos, errors.New("two rewrites overlap; edit the fixture by hand")
		}
	}
	return out, changes, fx.Pos, nil
}

// sharedAt is where a refusal err of node n is placed: an alias or an
// anchor where the file holds it (the value read through an alias has
// the anchored node's place, another turn's), else def.
func (s *srcDoc) sharedAt(n *yaml.Node, err error, def Pos) Pos {
	if n == nil || !errors.Is(err, errAnchor) || (n.Kind != yaml.AliasNode && n.Anchor == "") {
		return def
	}
	return Pos{File: def.File, Line: s.line + n.Line, Col: n.Column}
}

// node walks path from the document root: the node there, and whether it
// sits in a flow collection; a step through an anchor, alias or merge is
// refused (with the node holding it).
func (s *srcDoc) node(path []step) (*yaml.Node, bool, error) {
	n, flow := s.root, false
	for _, st := range path {
		if n.Kind == yaml.AliasNode || n.Anchor != "" {
			return n, false, errAnchor
		}
		flow = flow || n.Style&yaml.FlowStyle != 0
		var next *yaml.Node
		switch {
		case st.isKey && n.Kind == yaml.MappingNode:
			next = lastGet(n, st.key)
			if next == nil {
				if hasMerge(n) {
					return nil, false, errMerge
				}
				return nil, false, fmt.Errorf("key %q is not in the file", st.key)
			}
		case !st.isKey && n.Kind == yaml.SequenceNode && st.index < len(n.Content):
			next = n.Content[st.index]
		default:
			return nil, false, fmt.Errorf("the file's shape differs from the fixture read")
		}
		n = next
	}
	return n, flow, nil
}

func hasMerge(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Tag == "!!merge" {
			return true
		}
	}
	return false
}

// updatable are the failure messages of expectations --update rewrites.
var updatable = []string{
	"expect_state: got ", "expect_world[", "expect_world_full[", "expect_world_final[",
	"expect_view_matches: view does not match", "expect_host_calls: ",
	"expected error code ", "expect_error: code got ",
}

// plan lists the changes that make fx's expectations what the run showed;
// an error (at pos) when it fails for a reason --update cannot rewrite.
func plan(fx *Fixture, res *Result) ([]change, Pos, error) {
	if res.Fatal != nil {
		return nil, res.Fatal.Pos, fmt.Errorf("it could not run (%s); --update fixes expectations only", firstLine(res.Fatal.Message))
	}
	for _, f := range res.Failures {
		if !slices.ContainsFunc(updatable, func(p string) bool { return strings.HasPrefix(f.Message, p) }) {
			return nil, f.Pos, fmt.Errorf("it fails for a reason --update does not rewrite: %s", firstLine(f.Message))
		}
	}
	var out []change
	for _, t := range fx.Turns {
		if t.Index >= len(res.obs) || res.obs[t.Index] == nil {
			break // the run stopped before this turn
		}
		o := res.obs[t.Index]
		if err := unstubbed(o); err != nil {
			return nil, t.Pos, fmt.Errorf("turn %d: %v", t.Index+1, err)
		}
		chs, pos, err := turnChanges(t, o)
		if err != nil {
			return nil, pos, err
		}
		out = append(out, chs...)
	}
	if res.finalWorld != nil {
		for _, kv := range fx.ExpectWorldFinal {
			if got := res.finalWorld[kv.Key]; !equal(got, kv.Value) {
				out = append(out, change{path: []step{keyStep("expect_world_final"), keyStep(kv.Key)}, want: plain(norm(got)), pos: kv.Pos,
					what: fmt.Sprintf("expect_world_final[%q]", kv.Key)})
			}
		}
	}
	return out, fx.Pos, nil
}

// unstubbed is the error of a turn whose host call nothing answered,
// which --update must not write into the expectations.
func unstubbed(o *turnObs) error {
	for _, ev := range o.evs {
		if ev.Kind != engine.KindHarnessReturned {
			continue
		}
		msg, _ := ev.field("error").(string)
		if strings.Contains(msg, "no handler registered for") || strings.HasPrefix(msg, "cassette miss") {
			return fmt.Errorf("a host call had no answer (%s); add a stub (host_handlers) or a cassette episode: --update fixes expectations only", firstLine(msg))
		}
	}
	return nil
}

func turnChanges(t *Turn, o *turnObs) ([]change, Pos, error) {
	at := func(keys ...step) []step { return append([]step{keyStep("turns"), indexStep(t.Index)}, keys...) }
	label := func(s string) string { return fmt.Sprintf("turn %d %s", t.Index+1, s) }
	var out []change
	if ee := t.ExpectError; ee != nil {
		switch {
		case o.rej == nil:
			return nil, ee.Pos, fmt.Errorf("turn %d: expect_error %s, but the turn was not rejected; --update never removes an assertion", t.Index+1, ee.Code)
		case o.rej.Code != ee.Code:
			out = append(out, change{path: at(keyStep("expect_error"), keyStep("code")), want: o.rej.Code, pos: ee.Pos, what: label("expect_error.code")})
		}
		return out, t.Pos, nil
	}
	if !o.checked {
		return nil, t.Pos, nil
	}
	if t.ExpectState != nil && *t.ExpectState != "" && *t.ExpectState != o.state {
		out = append(out, change{path: at(keyStep("expect_state")), want: o.state, pos: t.valueAt("expect_state"), what: label("expect_state")})
	}
	for _, w := range []struct {
		key string
		kvs []KV
	}{{"expect_world", t.ExpectWorld}, {"expect_world_full", t.ExpectWorldFull}} {
		for _, kv := range w.kvs {
			if got := o.world[kv.Key]; !equal(got, kv.Value) {
				out = append(out, change{path: at(keyStep(w.key), keyStep(kv.Key)), want: plain(norm(got)), pos: kv.Pos, what: label(fmt.Sprintf("%s[%q]", w.key, kv.Key))})
			}
		}
	}
	if p := t.ExpectViewMatches; p != nil {
		if re, err := regexp.Compile(*p); err == nil && !re.MatchString(o.view) {
			np, err := repairView(*p, o.view)
			if err != nil {
				return nil, t.at("expect_view_matches"), fmt.Errorf("turn %d expect_view_matches: %v", t.Index+1, err)
			}
			out = append(out, change{path: at(keyStep("expect_view_matches")), want: np, pos: t.valueAt("expect_view_matches"), what: label("expect_view_matches")})
		}
	}
	for i, hc := range t.ExpectHostCalls {
		chs, err := hostCallChanges(hc, hostCalls(o.evs, o.legacy, hc.Handler), at(keyStep("expect_host_calls"), indexStep(i)))
		if err != nil {
			return nil, hc.Pos, fmt.Errorf("turn %d expect_host_calls[%d]: %v", t.Index+1, i, err)
		}
		for k := range chs {
			chs[k].what = label(fmt.Sprintf("expect_host_calls[%d].%s", i, chs[k].what))
		}
		out = append(out, chs...)
	}
	return out, t.Pos, nil
}

// hostCallChanges rewrites one expect_host_calls entry: its args to the
// call matching most of them (when that is clear), times to the count.
func hostCallChanges(hc HostCallExpect, calls []map[string]any, at []step) ([]change, error) {
	n := countMatching(calls, hc.Args)
	if (hc.Times != nil && n == *hc.Times) || (hc.Times == nil && n > 0) {
		return nil, nil
	}
	var out []change
	if n == 0 && len(calls) > 0 {
		best, score, tie := -1, -1, false
		for i, a := range calls {
			switch s := argsMatched(a, hc.Args); {
			case s > score:
				best, score, tie = i, s, false
			case s == score && !sameArgs(calls[best], a, hc.Args):
				tie = true
			}
		}
		if tie {
			return nil, fmt.Errorf("%s was called %d times with different args and none matches; --update cannot tell which call the entry means; edit it by hand", hc.Handler, len(calls))
		}
		args := make([]KV, len(hc.Args))
		for i, kv := range hc.Args {
			got := calls[best][kv.Key]
			args[i] = KV{Key: kv.Key, Value: got, Pos: kv.Pos}
			if !equal(got, kv.Value) {
				out = append(out, change{path: slices.Concat(at, []step{keyStep("args"), keyStep(kv.Key)}), want: plain(norm(got)), pos: kv.Pos, what: fmt.Sprintf("args[%q]", kv.Key)})
			}
		}
		n = countMatching(calls, args)
	}
	switch {
	case hc.Times != nil && n != *hc.Times:
		out = append(out, change{path: slices.Concat(at, []step{keyStep("times")}), want: int64(n), pos: hc.Pos, what: "times"})
	case hc.Times == nil && n == 0:
		return nil, fmt.Errorf("%s was never called; --update never removes an assertion", hc.Handler)
	}
	return out, nil
}

// sameArgs reports whether two calls agree on the listed keys.
func sameArgs(a, b map[string]any, keys []KV) bool {
	for _, kv := range keys {
		if !equal(a[kv.Key], b[kv.Key]) {
			return false
		}
	}
	return true
}
