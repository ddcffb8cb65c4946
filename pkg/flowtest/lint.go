package flowtest

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"
)

// LintStorySources parses and lints the fixtures beside a loaded story,
// returning the findings and each file's bytes it read, by path.
func LintStorySources(app string, st *story.Story) ([]diag.Diagnostic, map[string][]byte) {
	sources := map[string][]byte{}
	root := ""
	if st != nil {
		root = st.ProjectRoot
	}
	files, ds, err := discover([]string{app}, root, nil, "", false, nil, func(p string, b []byte) { sources[p] = b })
	if err != nil {
		return nil, nil
	}
	for _, d := range ds {
		if d.Rule == ruleOutsideRoot.ID {
			sources[d.File] = nil // refused unread: the caller must not read it either
		}
	}
	var fxs []*Fixture
	for _, f := range files {
		fxs = append(fxs, f.Fixtures...)
	}
	return append(ds, lint(st, fxs)...), sources
}

// lint checks fixtures against their story: unknown intents and states,
// unused stubs, assertions never evaluated, missing named files.
func lint(st *story.Story, fxs []*Fixture) []diag.Diagnostic {
	return lintState(st, fxs).ds
}

// lintState is lint's work, with the state it ends in.
func lintState(st *story.Story, fxs []*Fixture) *fixtureLint {
	return lintStateAt(st, fxs, judgeVisitBytes)
}

// lintStateAt is lintState with the guard visits' budget given
// (guardJudge.visitBytes); only tests pass another than judgeVisitBytes.
func lintStateAt(st *story.Story, fxs []*Fixture, visitBytes int64) *fixtureLint {
	return lintStateWithin(st, fxs, visitBytes, settleSteps)
}

// lintStateWithin is lintStateAt with the settle walks' step budget
// given (walkBudget); only tests pass another than settleSteps.
func lintStateWithin(st *story.Story, fxs []*Fixture, visitBytes, steps int64) *fixtureLint {
	fl := &fixtureLint{guards: guardJudge{visitBytes: visitBytes}, steps: walkBudget{limit: steps}}
	if st == nil || len(fxs) == 0 {
		return fl // nothing to check: the story is not folded for nothing
	}
	fl.root, fl.ix = st, indexFolded(st)
	for _, fx := range fxs {
		fl.fx = fx
		from := len(fl.ds)
		fl.files()
		fl.cassetteFiles()
		fl.unplayedEpisodes()
		fl.turns()
		fl.notTerminal()
		fl.severityNever()
		fl.noErrorsWithRejection()
		fl.worldTypes()
		fl.worldValues()
		fl.callsNever()
		fl.dropKnownBesideNever(from)
		calls := fl.ix.fixtureCalls(fx)
		for _, s := range fx.HostHandlers {
			if !callsIn(calls, s.Name) && !boundTo(fx, s.Name) {
				fl.warn(s.Pos, ruleUnusedStub, "host_handlers.%s: the story never calls this handler (it calls: %s)", s.Name, listCalls(calls))
			}
		}
	}
	return fl
}

// fixtureLint is lint's state.
type fixtureLint struct {
	root *story.Story
	ix   *storyIndex
	fx   *Fixture
	ds   []diag.Diagnostic
	rest rest // where the fixture rests before the next turn (lint_rejected.go)
	// rec: the fixture's recording, once read (recLoaded; nil: it does
	// not load), for the input: turns the replay follows
	// (lint_replay_input.go)
	rec       *Recording
	recLoaded bool
	world     *knownWorld // what it certainly holds then (lint_world_known.go)
	par       string      // the parallel path the previous turn's expect_state names (lint_par_alias.go)
	guards    guardJudge  // guards compiled and judged once (lint_world_known.go)
	steps     walkBudget  // the settle walks' steps (lint_settle_budget.go)
	// jobsOut: a turn before may have started a background job that
	// moves the machine when it lands (lint_jobs_out.go); stepped: the
	// turn being judged led where step certainly says
	jobsOut, stepped bool
	cassette         fixtureCassette // the fixture's host_cassette, read once (lint_cassette.go)
	// the background jobs a followed turn started and that have not
	// landed, the fixture's virtual clock, and whether a turn not
	// followed may have started others (lint_jobs_land.go); walked: the
	// turn being judged was followed by the settle walk, advanced: its
	// advance_clock too
	jobs     []litJob
	now      time.Duration
	inbox    litInbox // its notifications as far as certain (lint_inbox.go)
	jobsLost bool
	// raced: the jobs due before the turn's intent that raceLand took
	// out (lint_jobs_fewer.go counts them ended)
	raced            int
	walked, advanced bool
	// listenerGone: a user turn may have rested the session in a terminal
	// state, after which no job lands upstream (lint_jobs_land.go)
	listenerGone bool
	// slotWarned: the turns' slots warned at as refused (lint_slot_uint.go)
	slotWarned map[slotWarnKey]bool
	// cassetteLinted: the cassettes linted, by path; cassetteSeen: the
	// places in them warned at (lint_cassette_file.go)
	cassetteLinted map[string]bool
	cassetteSeen   map[Pos]bool
	// replay: the engine's own machine following the fixture's turns
	// from a parallel configuration (lint_par_replay.go); nil: none
	replay *parReplay
	// turnDs: the findings before the turn being judged (turn's count too)
	turnDs int
}

// add reports a finding at p (in the fixture's file unless p names one).
func (l *fixtureLint) add(p Pos, sev diag.Severity, rule *diag.Rule, msg string) {
	file := cmp.Or(p.File, l.fx.File)
	l.ds = append(l.ds, diag.Diagnostic{File: file, Line: p.Line, Col: p.Col, Severity: sev, Rule: rule.ID, Message: msg})
}

func (l *fixtureLint) warn(p Pos, rule *diag.Rule, format string, a ...any) {
	l.add(p, diag.Warning, rule, fmt.Sprintf(format, a...))
}

// files checks the files the fixture names are inside the project root, and there.
func (l *fixtureLint) files() {
	fx := l.fx
	for _, named := range append(fx.cassettes(), namedFile{"recording", fx.Recording}) {
		k, p := named.key, named.path
		if p == "" {
			continue
		}
		if _, err := resolveNamed(namedRoot(l.root, fx.File), fx.File, k, p); err != nil {
			l.add(fx.valueAt(k), diag.Error, ruleOutsideRoot, err.Error())
			continue
		}
		full := fx.rel(p)
		if mode, err := os.Stat(full); err != nil || mode.IsDir() {
			l.missingFile(k, full)
		}
	}
	for _, fe := range fx.ExpectFiles {
		if _, err := resolveNamed(namedRoot(l.root, fx.File), fx.File, "expect_files", fe.Path); err != nil {
			l.add(fe.Pos, diag.Error, ruleOutsideRoot, err.Error())
		}
	}
}

// missingFile reports a cassette or recording k that does not exist at
// full: an error where the fixture opens it, a warning where its path
// never does (a cassette on the legacy path, a recording on the
// orchestrator path with no turn that input: alone drives).
func (l *fixtureLint) missingFile(k, full string) {
	fx := l.fx
	msg := fmt.Sprintf("%s: %s does not exist (paths are relative to the fixture's directory)", k, full)
	opened, why := fx.Orchestrated(), "the legacy path (use_orchestrator: false) reads no cassette"
	if k == "recording" {
		opened, why = fx.opensRecording(), "the orchestrator path reads a recording only for a turn that input: alone drives"
	}
	if !opened {
		l.warn(fx.valueAt(k), ruleMissingFile, "%s; this fixture never opens it (%s), so it runs without it: add the file or remove the key", msg, why)
		return
	}
	l.add(fx.valueAt(k), diag.Error, ruleMissingFile, msg+"; the fixture opens it before its first turn: kitsoki fails the fixture, and the existing engine ends the whole test run there (no report)")
}

// turns checks the fixture's patterns, initial state, and each turn.
func (l *fixtureLint) turns() {
	fx, ix := l.fx, l.ix
	for _, t := range fx.Turns {
		if t.ExpectViewMatches != nil {
			if _, err := l.root.Patterns().Compile(*t.ExpectViewMatches); err != nil {
				l.warn(t.valueAt("expect_view_matches"), ruleBadRegex, "turns[%d].expect_view_matches: %s; the turn will always fail", t.Index, err)
			}
		}
	}
	if fx.InitialState == "" && !fx.Orchestrated() && len(fx.Turns) > 0 {
		root := cmp.Or(l.root.Root, "<the story's root>") // l.root: lint's story, never nil
		l.warn(fx.at("test_kind"), ruleUnknownState, "no initial_state: this fixture runs on the legacy path, which starts in the state \"\" and rejects every intent, as the existing engine does; add initial_state: %s (or use_orchestrator: true, which starts at the root)", root)
	}
	if fx.InitialState != "" && !ix.hasState(fx.InitialState) {
		what := "every intent it fires would be rejected"
		if !fx.firesIntent() {
			what = "it fires no intent: its turns only advance the clock, resting there"
		}
		if anc := ix.knownAncestor(fx.InitialState); anc != "" {
			// conformance start-under-known
			what = fmt.Sprintf("the fixture rests on that path, shows no view of its own and takes the intents of %q (and of its ancestors), as the existing engine does; if a state was renamed, name the state it should start in", anc)
		}
		if w := ix.straysWhat(fx.InitialState); w != "" {
			what = w
		}
		if w, ok := ix.oddRootWhat(fx); ok {
			what = w
		}
		l.warn(fx.valueAt("initial_state"), ruleUnknownState, "initial_state %q is not a state of the story%s; %s", fx.InitialState, ix.suggestState(fx.InitialState), what)
	}
	l.oddRoot()
	if root, _, ok := strings.Cut(fx.InitialState, "#"); ok && ix.hasState(fx.InitialState) {
		l.partialRegions(fx, root, leaves(fx.InitialState))
	}
	l.endReplay() // a run of the engine is not carried to the next fixture
	l.rest = l.startRest()
	l.jobsOut, l.par = false, "" // a parallel rest is not carried to the next fixture
	l.jobs, l.now, l.jobsLost, l.listenerGone = nil, 0, false, false
	l.inbox = l.startInbox()
	l.world = nil
	if !ix.unfolded {
		l.world = l.startWorld()
	}
	for _, t := range fx.Turns {
		l.turnDs = len(l.ds)
		l.turn(t)
		l.rejected(t)
	}
	l.replayLast()
}

// turn checks one turn's intent, states and assertions that would not be checked.
func (l *fixtureLint) turn(t *Turn) {
	fx, ix := l.fx, l.ix
	l.bareIntent(t)
	if t.ExpectError != nil {
		for _, k := range []string{"expect_state", "expect_not_state", "expect_world", "expect_view_matches", "expect_host_calls", "expect_events"} {
			if p, ok := t.keys.find(k); ok {
				l.warn(p.at, ruleNotChecked, "turns[%d].%s is not checked: a turn with expect_error runs no other assertion", t.Index, k)
			}
		}
		l.errorCode(t)
		return // negative turns name unknown intents on purpose
	}
	if t.Intent != nil && t.Intent.Name != "" && !ix.intents[t.Intent.Name] {
		if ix.wildcard {
			l.warn(t.Intent.Pos, ruleUnknownIntent, "turns[%d]: intent %q is not declared by the story, and no state has an on: %s arm: only a \"*\" arm can take it%s", t.Index, t.Intent.Name, t.Intent.Name, ix.intentHint(t.Intent.Name))
		} else if ix.unfolded { // else flow-rejected says it (undeclared)
			l.warn(t.Intent.Pos, ruleUnknownIntent, "turns[%d]: intent %q is not declared or handled by any state of the story%s", t.Index, t.Intent.Name, ix.intentHint(t.Intent.Name))
		}
	}
	refs := statesOf(t)
	for _, s := range refs {
		if s.empty {
			l.warn(t.valueAt(s.key), ruleNotChecked, "turns[%d].%s is empty and asserts nothing (upstream reads an empty value as unset)", t.Index, s.key)
		}
	}
	if t.Intent == nil && !t.HasInput && len(t.WorldOverride) > 0 {
		l.warn(t.at("world_override"), ruleIgnoredKey, "turns[%d].world_override is ignored on a turn that only advances the clock (the existing engine writes it only before an intent); move it to the next intent turn", t.Index)
	}
	for _, k := range []struct {
		key  string
		none bool
	}{{"expect_world_full", !t.HasWorldFull}, {"expect_events_exact", !t.HasEventsExact}} {
		if _, ok := t.keys.find(k.key); ok && k.none {
			l.warn(t.valueAt(k.key), ruleNotChecked, "turns[%d].%s is empty and asserts nothing (upstream checks it only when it lists something: remove it, or list what the turn must hold)", t.Index, k.key)
		}
	}
	l.parallelOrder(t)
	for _, s := range refs {
		if s.name != "" && !ix.hasState(s.name) {
			l.warn(t.valueAt(s.key), ruleUnknownState, "turns[%d].%s: %q is not a state of the story%s", t.Index, s.key, s.name, ix.suggestState(s.name))
		}
	}
	for _, k := range []string{"expect_inbox", "expect_jobs"} {
		if p, ok := t.keys.find(k); ok && !fx.Orchestrated() {
			l.warn(p.at, ruleNotChecked, "turns[%d].%s is not checked on this fixture: it runs on the legacy path (no host_handlers, cassette or clock key, or use_orchestrator: false), which has no jobs or inbox", t.Index, k)
		}
	}
	l.expectJobs(t)
	l.slotsExpected(t)
	if t.ExpectWorldUnchanged && fx.Orchestrated() {
		l.warn(t.at("expect_world_unchanged"), ruleNotChecked, "turns[%d].expect_world_unchanged is not checked on this fixture (upstream evaluates it only when no host_handlers, cassette or clock key is present)", t.Index)
	}
}

// stateRef is a state a turn's assertion names (empty: written empty).
type stateRef struct {
	key, name string
	empty     bool
}

func statesOf(t *Turn) []stateRef {
	var out []stateRef
	if t.ExpectState != nil {
		out = append(out, stateRef{"expect_state", *t.ExpectState, *t.ExpectState == ""})
	}
	if t.ExpectNotState != nil {
		out = append(out, stateRef{"expect_not_state", *t.ExpectNotState, *t.ExpectNotState == ""})
	}
	if t.ExpectStateIn != nil && len(t.ExpectStateIn) == 0 {
		out = append(out, stateRef{"expect_state_in", "", true})
	}
	for _, s := range t.ExpectStateIn {
		out = append(out, stateRef{"expect_state_in", s, false})
	}
	return out
}

type storyIndex struct {
	states  map[string]bool
	intents map[string]bool
	invoked map[string]bool
	// invokes: each invoke: as written, before bound (fixtureCalls)
	invokes map[string]bool
	// jobCalls, foreground: the bound names invoked by a background
	// effect, and by any other (lint_par_replay.go's replayHosts)
	jobCalls, foreground map[string]bool
	// world is the declared world keys, by the name a fixture sets them
	// (folded: a child's k is kid__k)
	world map[string]*story.WorldVar
	// stateList lists states once for the did-you-means, and suggested
	// counts them: each costs a pass over every state, so past
	// maxSuggestions the warnings come without one.
	stateList []string
	suggested int

	// for the rejected-turn checks (lint_rejected.go): the states by path
	// (folded when the story imports), each intent's declarations (global and
	// state-local), the on: names some state takes, the arc names each
	// spelling of an imported intent stands for (everywhere, and by state
	// path), whether some state takes "*" and whether a
	// background job's on_complete can move the machine between turns (a
	// target:, an emit or a call whose on_error redirects: story-runtime §5)
	byPath   map[string]*story.State
	decls    map[string][]*story.Intent
	taken    map[string]bool
	aliases  map[string][]string
	aliasAt  map[string]map[string]string
	wildcard bool
	jobs     bool
	// parallel: the story has a parallel state (its entry's world is followed: parEnterWorld)
	parallel bool
	// background: some effect of the story starts a background job
	background bool
	// terminal: some state of the story is terminal
	terminal bool
	// unfolded: the story imports or expands phases but did not fold, so
	// the index misses states and arms
	unfolded bool
	// story is the story indexed (folded when it imports), source the
	// one loaded (lint_world_known.go)
	story, source *story.Story
	// lit caches literalWrites, litDone says it is computed
	// (lint_world_values.go)
	lit     map[string][]worldValue
	litDone bool
	// wrote caches writes, by its orchestrated argument
	// (lint_world_known.go)
	wrote [2]*storyWrites
	// unknown: the states of their own a templated target rests on at a
	// path the story does not hold (unknownAt)
	unknown map[string]*story.State
	// machine is the story compiled, once the lint needs the engine's own
	// judgement (exitNeverMade, firedLeaves), and views its views as the
	// rig renders them (the replay's); compiled says it was tried
	machine  *engine.Machine
	views    engine.ViewRenderer
	compiled bool
	// replayOK: the story calls nothing, so the engine's machine may
	// follow a fixture's turns (lint_par_replay.go); replayDone says it
	// is judged
	replayOK, replayDone bool
}

// maxSuggestions is how many did-you-means one lint looks up.
const maxSuggestions = 200

// indexFolded is indexStory of st folded (phases expanded), with an
// imported child's bare intent spellings (`win` for `kid__win`) as intents.
func indexFolded(st *story.Story) *storyIndex {
	if fold.Changes(st) {
		if f, err := fold.New(st, fold.Options{Phases: phases.Expand}); err == nil && f != nil {
			ix := indexStory(f.Story)
			ix.source = st
			for _, p := range f.Paths() {
				if si := f.Info(p); si != nil {
					for name, arc := range si.IntentAliases {
						ix.intents[name] = true
						ix.aliases[name] = append(ix.aliases[name], arc)
					}
					ix.aliasAt[p] = si.IntentAliases
				}
			}
			return ix
		}
		ix := indexStory(st)
		ix.unfolded = true
		return ix
	}
	return indexStory(st)
}

func indexStory(st *story.Story) *storyIndex {
	ix := &storyIndex{states: map[string]bool{}, intents: map[string]bool{}, invoked: map[string]bool{}, invokes: map[string]bool{}, jobCalls: map[string]bool{}, foreground: map[string]bool{}, world: map[string]*story.WorldVar{},
		byPath: map[string]*story.State{}, decls: map[string][]*story.Intent{}, taken: map[string]bool{},
		aliases: map[string][]string{}, aliasAt: map[string]map[string]string{}, story: st, source: st}
	for _, w := range st.World {
		if _, dup := ix.world[w.Name]; !dup {
			ix.world[w.Name] = w
		}
	}
	for n, it := range st.Intents {
		ix.intents[n] = true
		ix.decls[n] = append(ix.decls[n], it)
	}
	for n := range st.CheckpointIntents {
		ix.intents[n] = true
	}
	var effects func([]*story.Effect)
	effects = func(list []*story.Effect) {
		for _, e := range list {
			if e == nil {
				continue
			}
			if e.Invoke != "" {
				ix.invoked[ix.bound(e.Invoke)] = true // iface.<name>.<op> is dispatched as <binding>.<op>
				if e.Background() {
					ix.jobCalls[ix.bound(e.Invoke)] = true
				} else {
					ix.foreground[ix.bound(e.Invoke)] = true
				}
				ix.invokes[e.Invoke] = true
			}
			ix.background = ix.background || e.Background()
			if e.Background() && !plainEffects(e.OnComplete()) {
				ix.jobs = true // an on_complete that only sets and says moves nothing
			}
			effects(e.OnComplete())
			effects(e.Effects())
		}
	}
	for _, s := range st.AllStates() { // the loader's tree: no nil state
		ix.states[s.Path] = true
		ix.byPath[s.Path] = s
		ix.terminal = ix.terminal || s.Terminal
		ix.parallel = ix.parallel || s.Parallel
		for n, it := range s.Intents {
			ix.intents[n] = true
			ix.decls[n] = append(ix.decls[n], it)
		}
		for _, on := range s.On {
			ix.intents[on.Intent] = true
			ix.taken[on.Intent] = true
			ix.wildcard = ix.wildcard || on.Intent == "*"
			for _, tr := range on.Arms {
				if tr != nil {
					effects(tr.Effects)
				}
			}
		}
		effects(s.OnEnter)
	}
	return ix
}

func (ix *storyIndex) hasState(p string) bool {
	if strings.HasPrefix(p, "__exit__") {
		return true
	}
	if root, _, ok := strings.Cut(p, "#"); ok {
		return ix.states[root] && !slices.ContainsFunc(leaves(p), func(l string) bool { return !ix.states[l] })
	}
	return ix.states[p]
}

// knownAncestor is the longest dotted prefix (or parallel root) of p that is a state, or "".
func (ix *storyIndex) knownAncestor(p string) string {
	if root, _, ok := strings.Cut(p, "#"); ok {
		if ix.states[root] {
			return root
		}
		return ""
	}
	for i := strings.LastIndex(p, "."); i > 0; i = strings.LastIndex(p[:i], ".") {
		if ix.states[p[:i]] {
			return p[:i]
		}
	}
	return ""
}

// suggestState is the did-you-mean of an unknown state p, or why a
// declared state of that very name is not one the engine can rest in.
func (ix *storyIndex) suggestState(p string) string {
	if ix.states[p] {
		// only a "#" makes hasState miss a declared name
		return " (a state of that name is declared, but the engine reads its \"#\" as the separator of a parallel state's leaves, so no turn rests there; rename the state, see the state-name warning)"
	}
	if ix.suggested >= maxSuggestions {
		return ""
	}
	ix.suggested++
	if ix.stateList == nil {
		ix.stateList = slices.Collect(maps.Keys(ix.states))
	}
	return didYouMean(p, ix.stateList)
}

// callsIn reports whether a stub named name serves one of the calls
// invoked (handler names, bound), exactly or by dotted prefix.
func callsIn(invoked map[string]bool, name string) bool {
	if name == "host.jobs.answer_clarification" {
		return true // the real handler is always present; a stub replaces it
	}
	if invoked[name] {
		return true
	}
	below := name + "."
	for h := range invoked {
		if strings.HasPrefix(h, below) {
			return true
		}
	}
	return false
}

// listCalls names the calls invoked, for a message.
func listCalls(invoked map[string]bool) string {
	hs := slices.Sorted(maps.Keys(invoked))
	if len(hs) == 0 {
		return "none"
	}
	if len(hs) > 8 {
		hs = append(slices.Clip(hs[:8]), fmt.Sprintf("… %d more", len(hs)-8))
	}
	return strings.Join(hs, ", ")
}

// partialRegions warns at a parallel initial_state that names no leaf in
// some region of root (conformance par-start-regions-named), or more than
// one (par-start-two-leaves).
func (l *fixtureLint) partialRegions(fx *Fixture, root string, leaves []string) {
	p := l.root.StateAt(root)
	if p == nil || !p.Parallel {
		return
	}
	var missing, twice []string
	for _, reg := range p.Children {
		switch n := countFunc(leaves, func(x string) bool { return x == reg.Path || strings.HasPrefix(x, reg.Path+".") }); {
		case n == 0:
			missing = append(missing, reg.Path)
		case n > 1:
			twice = append(twice, reg.Path)
		}
	}
	if len(missing) > 0 {
		l.warn(fx.valueAt("initial_state"), ruleUnknownState, "initial_state %q names no leaf of region %s: the fixture starts without one there (its intents are refused and its view is not drawn), as the existing engine does; name a leaf of every region in the path", fx.InitialState, strings.Join(missing, ", "))
	}
	if len(twice) > 0 {
		l.warn(fx.valueAt("initial_state"), ruleUnknownState, "initial_state %q names more than one leaf of region %s: both engines keep every entry (views, state path) until an intent is taken, then read back one leaf a region, the one listed last (after sorting, on the legacy path), as the existing engine does; name one leaf of each region", fx.InitialState, strings.Join(twice, ", "))
	}
}

// countFunc is how many of xs satisfy f.
func countFunc(xs []string, f func(string) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}

// bareIntent reports a turn's intent written as a bare name, which
// kitsoki runs and upstream refuses: a lint-only error.
func (l *fixtureLint) bareIntent(t *Turn) {
	if t.Intent == nil || !t.Intent.Bare {
		return
	}
	l.add(t.Intent.Pos, diag.Error, ruleShape, fmt.Sprintf("turns[%d].intent: a bare name; the existing engine refuses this fixture file (string was used where mapping is expected); write intent: {name: %s}", t.Index, t.Intent.Name))
}
