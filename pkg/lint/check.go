package lint

import (
	"iter"
	"slices"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// checker runs the rules over one loaded story.
type checker struct {
	st   *story.Story
	rep  *yamlnode.Reporter
	opts story.Options
	src  *sources
	// cc and built cache compiles (compile_cache.go); sites, files and
	// all cache the effect walk, existingFile and st.AllStates().
	cc    map[compileKey]error
	built map[compileKey]interface{ WorldKeys() []string }
	sites []effSite
	files map[string]fileAt
	all   []*story.State
	// expanded: st is a copy with its phases: expanded (checkExpanded);
	// generated maps each top-level state the expansion made to its graph
	// entry
	expanded  bool
	generated map[string]string
	// about is, on the expansion, the state a finding (by its index in
	// rep.Diags) is about when its message names it after its start, so
	// carries no Place of it (warnRead)
	about map[int]string
	// foldOver: st's import tree folds past the limits (checkFoldSize):
	// the checks that walk the folded tree are skipped.
	foldOver bool
	// suggested counts the did-you-mean lookups; paths caches
	// st.StatePaths() for them (did_you_mean.go).
	suggested int
	paths     []string
	// lists caches the declared names findings list (listOnce).
	lists map[string][]string
	// grammar caches what the grammar rules learn of each decide schema
	// (rule_grammar.go), by its cleaned path.
	grammar map[string]*grammarFacts
	// reads caches the story files the rules read (readStory), by path;
	// held, the load's, keeps each file read once and counts the bytes
	// (story_reads.go).
	reads map[string]fileRead
	held  *heldReads
	// worldReads caches the story's world reads and the template texts
	// they are listed from, which rules world-key and sorted-string share
	// (checker.worldKeys).
	worldReads *worldKeyCheck
	// sidecars caches the Starlark sidecars read and parsed, by path
	// (rule_starlark.go).
	sidecars map[string]sidecarRead
	// beforeStat, set by tests, runs before fileInside's look.
	beforeStat func(path string)
	// tpl holds the story's template loaders, which rules pongo and
	// world-key share, and the compile of each template file
	// (rule_pongo.go).
	tpl templates
}

// fileRead is one confined read of a story file.
type fileRead struct {
	b   []byte
	err error
}

// readStory reads abs through the story's root (safefile.Story's bound),
// once per check however many rules read it (templates, prompt files,
// Starlark scripts).
func (c *checker) readStory(abs string) ([]byte, error) {
	if r, ok := c.reads[abs]; ok {
		return r.b, r.err
	}
	b, err := c.readOnce(abs)
	if c.reads == nil {
		c.reads = map[string]fileRead{}
	}
	c.reads[abs] = fileRead{b, err}
	return b, err
}

// states returns st.AllStates(), listed once per check.
func (c *checker) states() []*story.State {
	if c.all == nil {
		c.all = c.st.AllStates()
	}
	return c.all
}

type fileAt struct {
	path string
	ok   bool
}

// existing is existingFile, asked once per path and check.
func (c *checker) existing(p string) (string, bool) {
	if f, ok := c.files[p]; ok {
		return f.path, f.ok
	}
	path, ok := c.existingFile(p)
	c.files[p] = fileAt{path, ok}
	return path, ok
}

// pass is one rule's check; a nil run registers a rule another pass (or
// pkg/validate) reports under.
type pass struct {
	rule *Rule
	run  func(c *checker)
}

// passes lists the checks in the order they run: the one registration of
// a rule.
func passes() []pass {
	return []pass{
		{story.RuleImports, checkImports},
		{ruleApp, checkApp},
		{story.RuleRoot, checkRoot},
		{ruleInitial, checkInitial},
		{story.RuleState, checkStateValues},
		{ruleStateName, checkStateNames},
		{story.RuleView, checkViews},
		{ruleTarget, checkTargets},
		{story.RuleIntent, checkIntents},
		{ruleRelevantWorld, checkRelevantWorld},
		{ruleHosts, checkHosts},
		{story.RuleEffect, checkEffectShape},
		{story.RulePersona, checkPersonas},
		{ruleSecretTooShort, checkShortSecrets},
		{ruleEnvEmptyRef, checkEnvEmptyRefs},
		{ruleAgentInvoke, checkAgentInvokes},
		{ruleAgentFile, checkAgentFiles},
		{ruleAgentTemplate, checkAgentTemplate},
		{ruleCallTimeout, checkCallTimeout},
		{ruleTimeoutZero, checkTimeoutZero},
		{rulePromptRoot, checkPromptRoots},
		{ruleSchema, checkSchemas},
		{ruleGrammar, checkGrammar},
		{ruleGrammarIgnored, checkGrammarIgnored},
		{ruleExpr, checkExprs},
		{ruleTemplate, checkValueTemplates},
		{rulePongo, checkPongo},
		{ruleCoalesceFile, checkCoalesceFiles},
		{ruleHexEscape, checkHexEscapes},
		{ruleEffectKinds, checkEffectKinds},
		{ruleEffectEmpty, checkEffectEmpty},
		{ruleOnceBind, checkOnceBind},
		{ruleStrictMismatch, checkStrictMismatch},
		{ruleSetType, checkSetTypes},
		{ruleWorldInText, checkWorldInText},
		{ruleSortedString, checkSortedString},
		{ruleGuardType, checkGuardTypes},
		{ruleExprType, checkExprTypes},
		{ruleSlotDefault, checkSlotDefaults},
		{ruleBareExpr, checkBareExpr},
		{ruleUnreachable, checkUnreachable},
		{ruleDecideSchema, checkDecideSchema},
		{ruleAgentArgs, checkAgentArgs},
		{ruleEmitAfterBind, checkEmitAfterBind},
		{ruleEmitBeforeBind, checkEmitBeforeBind},
		{ruleWithBeforeBind, checkWithBeforeBind},
		{ruleTargetTemplate, checkTargetTemplates},
		{ruleTargetSyntax, checkTargetSyntax},
		{ruleEmitAfterExit, checkEmitAfterExit},
		{ruleEmitAfterMove, checkEmitAfterMove},
		{ruleEmitAtTarget, checkEmitAtTarget},
		{ruleParEmitLeave, checkParEmitLeave},
		{ruleEmitCycle, checkEmitCycles},
		{ruleViewRoot, checkViewRoot},
		{rulePrebindView, checkPrebindView},
		{ruleDeadArm, checkDeadArms},
		{ruleWorldDefault, checkWorldDefaults},
		{ruleWorldKey, checkWorldKeys},
		{ruleDanglingName, checkDanglingNames},
		{ruleHostRunInts, checkHostRunInts},
		{ruleHostLocalTarget, checkHostLocalTarget},
		{ruleHostRunFailText, checkHostRunFailText},
		{ruleHostRunTimeout, checkHostRunTimeout},
		{ruleOnCompleteNonFinite, checkOnCompleteNonFinite},
		{ruleShellInjection, checkShellInjection},
		{ruleHostRunSecretEnv, checkHostRunSecretEnv},
		{ruleBareName, checkBareNames},
		{ruleUnfetchedRoot, checkUnfetchedRoots},
		{ruleRunRoot, checkRunRoot},
		{ruleCrossRegion, checkCrossRegion},
		{ruleReceiverRoot, checkReceiverRoot},
		{ruleSelection, checkSelection},
		{story.RulePhases, checkPhases},
		{story.RuleMetaMode, checkMetaModes},
		{ruleDecider, checkDecider},
		{story.RuleRouting, checkRouting},
		{ruleInterfaces, checkInterfaces},
		{ruleStarlark, checkStarlark},
		{ruleStarlarkPortable, checkStarlarkPortable},
		// reported by another rule's pass
		{ruleViewRender, nil},    // checkExprs, checkPongo
		{ruleOnErrorTarget, nil}, // checkTargets
		{ruleAgentAlias, nil},    // checkAgentInvokes
		{ruleExits, nil},         // checkTargets
		{ruleIgnore, nil},        // pkg/validate: # kitsoki:ignore comments
	}
}

// skips reports whether a load skips ps: a LintOnly rule's pass under
// LoadRunnable, but for the schema pass, whose compiles spend the story's
// regexp budget (st.Patterns), which the run spends after it: skipped, it
// would leave the run more to compile than Load does.
func (src *sources) skips(ps pass) bool {
	return src.runnable && ps.rule.LintOnly && ps.rule != ruleSchema
}

// check runs every pass over st, one story of a load (the top story or an
// imported child), reading files through opts and the load's sources.
func check(st *story.Story, rep *yamlnode.Reporter, opts story.Options, src *sources) {
	c := &checker{st: st, rep: rep, opts: opts, src: src, files: map[string]fileAt{}, cc: map[compileKey]error{}, held: src.held}
	start := len(rep.Diags)
	for _, ps := range passes() {
		if ps.run == nil || src.skips(ps) {
			continue
		}
		mark := len(rep.Diags)
		ps.run(c)
		// upstream drops a child's decider: and routing: when it folds it
		if st.Imported() && (ps.rule == ruleDecider || ps.rule == story.RuleRouting) {
			rep.DemoteSince(mark, "ignored in an imported child: upstream does not fold its "+ps.rule.ID+" block")
		}
	}
	checkExpanded(st, rep, opts, src, slices.Clone(rep.Diags[start:]))
	if st.Imported() {
		foldPlaces(st, rep.Diags[start:])
	}
}

// effSite is where an effect sits (its story.EffectPlace) and what that
// place lies in.
type effSite struct {
	*story.EffectPlace
	OnComplete bool // inside an on_complete chain
	Inline     bool // inside an inline effects: list
	Template   bool // inside a phase template (placeholders unresolved)
}

// eachEffect visits every effect of the story with its site (states, phase
// templates, phases, proposals, nested chains), walked once per check.
func (c *checker) eachEffect(fn func(e *story.Effect, site effSite)) {
	if c.sites == nil {
		c.sites = []effSite{}
		visit := func(walk iter.Seq[*story.EffectPlace], tpl bool) {
			for p := range walk {
				c.sites = append(c.sites, effSite{p, p.Within("on_complete"), p.Within("effects"), tpl})
			}
		}
		var w story.EffectWalk
		visit(w.States(c.states()...), false)
		for _, n := range sortedMapKeys(c.st.PhaseTemplates) {
			visit(w.States(story.Flatten(c.st.PhaseTemplates[n].States)...), true)
		}
		visit(w.Phases(c.st.Phases), true)
		visit(w.Proposals(c.st.Proposals), false)
	}
	for _, site := range c.sites {
		mark := len(c.rep.Diags)
		fn(site.Effect, site)
		if site.Inline {
			demoteInline(c.rep.Diags[mark:])
		}
		if site.InProposal() {
			c.demoteChildProposal(mark)
		}
	}
}

// demoteInline: upstream checks an effect inside an inline effects: list
// (which never runs) only as it decodes and compiles it; any other error
// there is a warning.
func demoteInline(ds []diag.Diagnostic) {
	for i := range ds {
		if ds[i].Rule != ruleExpr.ID && ds[i].Rule != ruleTemplate.ID && ds[i].Rule != story.RuleEffect.ID {
			diag.Demote(ds[i:i+1], "inside an inline effects: list, which never runs; the existing engine does not check it")
		}
	}
}

// eachTransition visits every transition of the real state tree.
func (c *checker) eachTransition(fn func(s *story.State, intent string, arm int, t *story.Transition)) {
	for _, s := range c.states() {
		for _, on := range s.On {
			for a, t := range on.Arms {
				fn(s, on.Intent, a, t)
			}
		}
	}
}
