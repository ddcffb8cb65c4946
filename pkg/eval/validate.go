package eval

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// Comparator kinds (reference C.8).
var comparatorKinds = []string{"exact", "field_subset", "enum", "artifact_diff", "judge"}

// Selection strategies eval run implements.
var strategies = []string{"cheapest_passing", "fastest_passing"}

// Efforts a story accepts (story-format: selection.effort).
var knownEfforts = []string{"low", "medium", "high", "xhigh", "max"}

// Validation is the result of validating a dataset against its story.
type Validation struct {
	Dataset *Dataset
	Story   *story.Story // nil when app: could not be loaded
	// Loaded is Story as the composition root (pkg/compose) loaded it:
	// what RunOptions.Plan is resolved from.
	Loaded   *compose.Loaded
	CallSite *CallSite // nil when not found
	Hashes   Hashes
	Findings []Finding
}

// OK reports whether there are no errors.
func (v *Validation) OK() bool {
	return !slices.ContainsFunc(v.Findings, func(f Finding) bool { return f.Severity == diag.Error })
}

// Errors returns the error messages in order.
func (v *Validation) Errors() []string { return v.messages(diag.Error) }

// Warnings returns the warning messages in order.
func (v *Validation) Warnings() []string { return v.messages(diag.Warning) }

func (v *Validation) messages(sev diag.Severity) []string {
	var out []string
	for _, f := range v.Findings {
		if f.Severity == sev {
			out = append(out, f.Message)
		}
	}
	return out
}

// StoryLoader loads stories once per path (eval list validates many
// datasets of one app). It is safe for concurrent use.
type StoryLoader struct {
	mu    sync.Mutex
	cache map[string]storyEntry
	Opts  story.Options
}

type storyEntry struct {
	ld  *compose.Loaded
	err error
}

// Load loads the story at path (cached) as the composition root does; a
// story with load errors is an error naming the first.
func (l *StoryLoader) Load(path string) (*compose.Loaded, error) {
	if l == nil {
		l = &StoryLoader{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.cache[path]; ok {
		return e.ld, e.err
	}
	opts := l.Opts
	opts.AllowUnsetEnv = true
	// A dataset is invalid only when its story does not load (upstream's
	// semantics); lint-only findings are warnings.
	ld, err := compose.Load(path, compose.LoadOptions{Story: opts, NoCompile: true})
	if err != nil {
		msg := "story could not be loaded"
		if le, ok := errors.AsType[*compose.LoadError](err); ok && len(le.Diagnostics) > 0 {
			msg = le.Diagnostics[0].String()
		}
		err, ld = fmt.Errorf("%s", msg), nil
	}
	if l.cache == nil {
		l.cache = map[string]storyEntry{}
	}
	l.cache[path] = storyEntry{ld, err}
	return ld, err
}

// Validate checks a dataset in the reference's order (C.3), adding the
// task, matrix and selection checks upstream skips. loader may be nil.
func Validate(d *Dataset, loader *StoryLoader) *Validation {
	v := &Validation{Dataset: d, Hashes: Hashes{Dataset: hashBytes(d.Raw)}}
	v.Findings = append(v.Findings, d.Findings...)
	errf := func(key, format string, a ...any) {
		v.Findings = append(v.Findings, Finding{Pos: d.PosOf(key), Severity: diag.Error, Message: diag.ClipMessage(fmt.Sprintf(format, a...))})
	}
	warnf := func(key, format string, a ...any) {
		v.Findings = append(v.Findings, Finding{Pos: d.PosOf(key), Severity: diag.Warning, Message: diag.ClipMessage(fmt.Sprintf(format, a...))})
	}
	checkHeader(d, errf)
	checkExamples(d, errf, warnf)
	checkTask(d, errf)
	checkMatrix(d, errf, warnf)
	checkSelection(d, errf)
	if d.App != "" { // errors and no app: stop (C.3 step 3)
		checkAgainstApp(v, loader, errf, warnf)
	}
	if len(d.Matrix.Profiles) == 0 {
		v.Findings = append(v.Findings, Finding{Pos: d.PosOf("matrix"), Severity: diag.Warning, blocksRun: true,
			Message: "matrix.profiles is empty: eval run has no candidate to measure; " + profilesHint(v.Story, v.CallSite)})
	}
	return v
}

// profilesHint says how to fill an empty matrix.profiles, naming the
// aliases the story declares in agent_plugins, and claude, which the
// loader adds to every story (as upstream's), only when the call runs on
// it (no agent: on the invoke) or the story declares none: a story that
// declares only agent.fast for the call is not told to measure claude.
func profilesHint(st *story.Story, cs *CallSite) string {
	if st == nil || len(st.AgentPlugins) == 0 {
		return "list the agent_plugins aliases to measure under matrix: {profiles: [...]}"
	}
	var names []string
	for _, n := range slices.Sorted(maps.Keys(st.AgentPlugins)) {
		ap := st.AgentPlugins[n]
		onDefault := n == story.DefaultAgentAlias && cs != nil && (cs.Plugin == "" || cs.Plugin == n)
		if !ap.Injected || onDefault {
			names = append(names, strings.TrimPrefix(n, "agent."))
		}
	}
	if len(names) == 0 {
		names = []string{strings.TrimPrefix(story.DefaultAgentAlias, "agent.")}
	}
	return fmt.Sprintf("list the agent_plugins aliases to measure, e.g. matrix: {profiles: [%s]}", diag.ClipMessage(strings.Join(names, ", ")))
}

// checkHeader checks the dataset's kind, app, call and comparator.
func checkHeader(d *Dataset, errf func(key, format string, a ...any)) {
	if d.Kind != "agent_eval" {
		errf("kind", "kind must be agent_eval")
		if d.otherKind != "" {
			errf("kind", "%s", otherKindMessage(d))
		}
	}
	if d.App == "" {
		errf("app", "app is required")
	}
	if d.Call == "" {
		errf("call", "call is required")
	} else if strings.ContainsAny(d.Call, `/\`) || d.Call == "." || d.Call == ".." {
		// reportsDir joins it: a path would put reports anywhere.
		errf("call", "call %q names its reports folder (reports/<call>/) and must be one path segment: no /, \\ or ..; use the invoke's plain id", d.Call)
	}
	switch {
	case d.Comparator.Kind == "":
		errf("comparator", "comparator is required")
	case !slices.Contains(comparatorKinds, d.Comparator.Kind):
		errf("comparator", "unsupported comparator %q", d.Comparator.Kind)
	}
}

// checkExamples checks the examples' names and expectations, and what the
// enum comparator needs of them.
func checkExamples(d *Dataset, errf, warnf func(key, format string, a ...any)) {
	if len(d.Examples) == 0 {
		errf("examples", "at least one example is required")
	}
	seen := map[string]bool{}
	for i, ex := range d.Examples {
		key := fmt.Sprintf("examples[%d]", i)
		if ex.Name == "" {
			errf(key, "examples[%d].name is required", i)
		}
		if seen[ex.Name] {
			errf(key, "duplicate example name %q", ex.Name)
		}
		seen[ex.Name] = true
		if len(ex.Expect) == 0 {
			errf(key, "example %q expect is required", ex.Name)
		}
	}
	if d.Comparator.Kind == "enum" {
		for i, ex := range d.Examples {
			if len(ex.Expect) == 0 {
				continue
			}
			if f := enumField(d.Comparator, ex.Expect); f == "" {
				errf(fmt.Sprintf("examples[%d].expect", i), "example %q: enum comparator needs a field or single expected key (set comparator: {kind: enum, field: <key>})", ex.Name)
			} else if _, ok := ex.Expect[f]; !ok {
				warnf(fmt.Sprintf("examples[%d].expect", i), "example %q expect has no field %q, which the enum comparator compares", ex.Name, f)
			}
		}
	} else if d.Comparator.Field != "" && d.Comparator.Kind != "" {
		// without a kind, "comparator is required" already says it
		warnf("comparator.field", "comparator.field is only read by the enum comparator (kind is %s)", d.Comparator.Kind)
	}
}

// checkAgainstApp loads the dataset's app and checks the call site, the
// expectations against its schema, and the profiles and judge it names.
func checkAgainstApp(v *Validation, loader *StoryLoader, errf, warnf func(key, format string, a ...any)) {
	d := v.Dataset
	appPath := d.App
	if !filepath.IsAbs(appPath) {
		appPath = filepath.Join(d.Dir(), appPath)
	}
	if why := appOutside(d.Path, d.App, filepath.Clean(appPath)); why != "" {
		errf("app", "%s", why)
		return
	}
	loaded, err := loader.Load(appPath)
	if err != nil {
		errf("app", "load app: %v", err)
		return
	}
	st := loaded.Story
	v.Story, v.Loaded = st, loaded
	lint := loaded.LintWarnings
	if loader == nil { // a nil loader (a caller's one-off check) reports no story lint
		lint = nil
	}
	for _, ld := range lint {
		v.Findings = append(v.Findings, Finding{Pos: story.Pos{File: ld.File, Line: ld.Line, Col: ld.Col}, Severity: diag.Warning,
			Message: diag.ClipMessage(fmt.Sprintf("story: %s [%s]", ld.Message, ld.Rule))})
	}
	cs := findCallSite(st, d.Call)
	if cs == nil {
		errf("call", "call site %q not found; add id: %s to the target host.agent.* invoke", d.Call, d.Call)
		// upstream's text above stays whole; a misspelt id gets its own line
		if hint := yamlnode.DidYouMean(d.Call, callIDs(st)); hint != "" {
			warnf("call", "call: %s (the id: of a host.agent.* invoke of %s)", hint, st.File)
		}
		return
	}
	v.CallSite = cs
	v.Hashes = computeHashes(d, st, cs)
	if d.Agent != "" && cs.Agent != "" && d.Agent != cs.Agent {
		errf("agent", "dataset agent %q does not match call-site agent %q", d.Agent, cs.Agent)
	}
	var failed map[int]bool
	if cs.SchemaPath != "" && !story.IsTemplated(cs.SchemaPath) {
		failed = checkExpectSchema(d, st, cs.SchemaPath, errf)
	}
	checkIntentLabels(d, st, failed, warnf)
	for i, p := range d.Matrix.Profiles {
		if p != "" && resolveProfile(st, p) == "" {
			key := fmt.Sprintf("matrix.profiles[%d]", i)
			v.Findings = append(v.Findings, Finding{Pos: d.PosOf(key), Severity: diag.Warning, cassetteProfile: p, blocksRun: true,
				Message: diag.ClipMessage(fmt.Sprintf("matrix.profiles[%d] %q is not an agent_plugins alias of the app; eval run cannot reach it without --cassette (declare agent_plugins: agent.%s)%s", i, p, strings.TrimPrefix(p, "agent."), aliasHint(st, p)))})
		}
	}
	if d.Comparator.Kind == "judge" {
		if d.Comparator.Agent != "" && resolveProfile(st, d.Comparator.Agent) == "" {
			errf("comparator.agent", "comparator.agent %q is not an agent_plugins alias of the app (declare agent_plugins: agent.%s)", d.Comparator.Agent, strings.TrimPrefix(d.Comparator.Agent, "agent."))
		}
		warnf("comparator", "judge comparator requires passing evidence for the judge call site before promotion")
	}
}

// checkExpectSchema validates every example's expect against the call
// site's schema, in the existing engine's words (LibraryText). A missing
// or null expect is validated as null and an empty one as {}, as upstream
// does, so such an example also says what the schema wants there.
func checkExpectSchema(d *Dataset, st *story.Story, schemaPath string, errf func(key, format string, a ...any)) map[int]bool {
	sc, err := schema.NewStoryCompiler(st.Dir, st.Patterns()).Compile(schemaPath)
	if err != nil {
		errf("call", "read schema: %v", err)
		return nil
	}
	failed := map[int]bool{}
	for i, ex := range d.Examples {
		key := fmt.Sprintf("examples[%d].expect", i)
		var v any = ex.Expect
		if ex.Expect == nil {
			if ex.expectNotObject {
				continue // "must be a mapping" says it
			}
			v = nil
			if _, written := d.pos[key]; !written {
				key = fmt.Sprintf("examples[%d]", i)
			}
		}
		if verr := sc.Validate(v); verr != nil {
			errf(key, "example %q expect schema invalid: agent: schema_invalid: %s", ex.Name, verr.LibraryText())
			failed[i] = true
		}
	}
	return failed
}

// resolveProfile maps a matrix profile to the declared alias: itself, else
// "agent.<profile>", else "".
// aliasHint is "; did you mean `x`?" when profile is a misspelling of
// one of the story's agent_plugins aliases (named without agent.), else "".
func aliasHint(st *story.Story, profile string) string {
	var names []string
	for n := range st.AgentPlugins {
		names = append(names, strings.TrimPrefix(n, "agent."))
	}
	slices.Sort(names)
	if hint := yamlnode.DidYouMean(strings.TrimPrefix(profile, "agent."), names); hint != "" {
		return "; " + hint
	}
	return ""
}

func resolveProfile(st *story.Story, profile string) string {
	if st == nil {
		return ""
	}
	if _, ok := st.AgentPlugins[profile]; ok {
		return profile
	}
	if _, ok := st.AgentPlugins["agent."+profile]; ok {
		return "agent." + profile
	}
	return ""
}

func checkTask(d *Dataset, errf func(key, format string, a ...any)) {
	if b := d.Task.Boundedness; b != nil && b.MaxTurns != nil && *b.MaxTurns < 1 {
		errf("task.boundedness.max_turns", "task.boundedness.max_turns must be at least 1, got %d", *b.MaxTurns)
	}
	a := d.Task.AdherenceBar
	if a == nil {
		return
	}
	// Written as "not within" so that NaN, which compares false with
	// everything and would pass every candidate, is refused too.
	if !(a.MinPassRate >= 0 && a.MinPassRate <= 1) {
		errf("task.adherence_bar.min_pass_rate", "task.adherence_bar.min_pass_rate must be between 0 and 1, got %g", a.MinPassRate)
	}
	if k := a.MinPassKRate; k != nil && !(*k >= 0 && *k <= 1) {
		errf("task.adherence_bar.min_pass_k_rate", "task.adherence_bar.min_pass_k_rate must be between 0 and 1, got %g", *k)
	}
	if a.MaxP95LatencyMS != nil && *a.MaxP95LatencyMS < 0 {
		errf("task.adherence_bar.max_p95_latency_ms", "task.adherence_bar.max_p95_latency_ms must not be negative, got %d", *a.MaxP95LatencyMS)
	}
	if a.MaxAvgCostUSD != nil && !(*a.MaxAvgCostUSD >= 0) {
		errf("task.adherence_bar.max_avg_cost_usd", "task.adherence_bar.max_avg_cost_usd must not be negative, got %g", *a.MaxAvgCostUSD)
	}
}

// maxCostPerHour bounds matrix.cost_per_hour_usd, so a call's price (its
// latency × the rate) is always a finite number a report can hold.
const maxCostPerHour = 1e6

func checkMatrix(d *Dataset, errf, warnf func(key, format string, a ...any)) {
	m := d.Matrix
	seen := checkList("matrix.profiles", "profile", m.Profiles, errf, nil)
	for _, p := range slices.Sorted(maps.Keys(m.Models)) {
		key := "matrix.models." + p
		if !seen[p] {
			errf(key, "matrix.models.%s names a profile that is not in matrix.profiles", p)
		}
		checkList(key, "model", m.Models[p], errf, nil)
	}
	for _, p := range slices.Sorted(maps.Keys(m.CostPerHourUSD)) {
		key, rate := "matrix.cost_per_hour_usd."+p, m.CostPerHourUSD[p]
		if !seen[p] {
			errf(key, "%s names a profile that is not in matrix.profiles", key)
		}
		if !(rate >= 0 && rate <= maxCostPerHour) {
			errf(key, "%s must be a price in USD per hour from 0 to %g, got %g", key, float64(maxCostPerHour), rate)
		}
	}
	checkList("matrix.effort", "effort", m.Effort, errf, func(at, e string) {
		if !slices.Contains(knownEfforts, e) {
			warnf(at, "%s %q is not one of low, medium, high, xhigh, max", at, e)
		}
	})
}

// checkList checks the list at key (no empty or repeated entry), calls
// each with every non-empty entry and returns them.
func checkList(key, what string, list []string, errf func(key, format string, a ...any), each func(at, v string)) map[string]bool {
	seen := map[string]bool{}
	for i, v := range list {
		at := fmt.Sprintf("%s[%d]", key, i)
		if strings.TrimSpace(v) == "" {
			errf(at, "%s is empty", at)
			continue
		}
		if seen[v] {
			errf(at, "duplicate %s %q in %s", what, v, key)
		}
		seen[v] = true
		if each != nil {
			each(at, v)
		}
	}
	return seen
}

func checkSelection(d *Dataset, errf func(key, format string, a ...any)) {
	s := d.Selection
	if s == nil {
		return
	}
	switch {
	case s.Strategy == "":
		errf("selection", "selection.strategy is required (cheapest_passing or fastest_passing)")
	case !slices.Contains(strategies, s.Strategy):
		errf("selection.strategy", "unsupported selection strategy %q (use cheapest_passing or fastest_passing)", s.Strategy)
	}
	p := s.Pinned
	if p == nil {
		return
	}
	m := d.Matrix
	if p.Profile == "" {
		if p.Model != "" || p.Effort != "" {
			errf("selection.pinned", "selection.pinned.profile is required when a model or effort is pinned")
		}
	} else if !slices.Contains(m.Profiles, p.Profile) {
		errf("selection.pinned.profile", "selection.pinned.profile %q is not in matrix.profiles", p.Profile)
	} else if models, ok := m.Models[p.Profile]; ok && p.Model != "" && !slices.Contains(models, p.Model) {
		errf("selection.pinned.model", "selection.pinned.model %q is not in matrix.models.%s", p.Model, p.Profile)
	}
	if p.Effort != "" && len(m.Effort) > 0 && !slices.Contains(m.Effort, p.Effort) {
		errf("selection.pinned.effort", "selection.pinned.effort %q is not in matrix.effort", p.Effort)
	}
	if p.FallbackProfile != "" && !slices.Contains(m.Profiles, p.FallbackProfile) {
		errf("selection.pinned.fallback_profile", "selection.pinned.fallback_profile %q is not in matrix.profiles", p.FallbackProfile)
	}
}
