package engine

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/duration"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/host"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// Problem is one reason a story cannot be run, with its position.
type Problem struct {
	Pos     Pos
	Message string
}

func (p Problem) String() string { return p.Pos.String() + ": " + p.Message }

// CompileError lists every reason a story was refused before it started.
type CompileError struct {
	Problems []Problem
}

func (e *CompileError) Error() string { return diag.Problems("story cannot be run", e.Problems) }

// CompileOptions tune Compile.
type CompileOptions struct {
	// HostReplay, when set, answers the handlers it handles, so those
	// handlers are not refused.
	HostReplay HostReplay
	// Hosts is the registry the run will dispatch through (nil = the
	// engine's defaults); a handler it cannot serve is refused.
	Hosts *host.Registry
	// Bindings rebinds host interfaces before they are resolved (a flow
	// fixture's host_bindings:, fold.Options.Bindings).
	Bindings map[string]string
	// LateHandlers leaves handler checks to call time (the flow rig: an
	// unstubbed handler is an infra error when called, flow-format §4.4).
	LateHandlers bool
}

func (c *compiler) hosts() *host.Registry {
	if c.opts.Hosts != nil {
		return c.opts.Hosts
	}
	return defaultHosts()
}

// handled reports whether a run can serve handler h.
func (c *compiler) handled(h string) bool {
	if isAgentHandler(h) || c.opts.LateHandlers || replays(c.opts.HostReplay, h) {
		return true
	}
	_, _, _, ok := c.hosts().Lookup(h)
	return ok
}

// Compile turns a loaded story into an executable Machine. Constructs the
// engine does not execute (imports, phases, parallel states, background
// jobs) and host handlers it cannot answer are refused here, all of them at
// once, by name and position — a story is never half-run.
func Compile(st *story.Story, opts CompileOptions) (*Machine, error) {
	var folded *fold.Folded
	if len(opts.Bindings) > 0 || fold.Changes(st) {
		// imports are folded into one state tree first (seam 3)
		f, err := foldForCompile(st, opts)
		if err != nil {
			return nil, err
		}
		folded, st = f, f.Story
	}
	c := &compiler{st: st, opts: opts, m: &Machine{
		AppID: st.App.ID, Dir: st.Dir, Root: st.Root, Exits: map[string]bool{},
		States: map[string]*State{}, renders: map[string]*PromptRenderer{},
		SlotTypes: map[string]map[string]string{}, Hidden: map[string]bool{},
	}}
	c.m.Folded = folded
	c.m.pongo = inlineLoader(st)
	c.m.render = newPromptRenderer(st.Dir, storyLoader(st))
	c.m.Entry = entryFile(st)
	c.m.World = worldVars(st)
	c.m.exitPos, c.m.exitStates = map[string]Pos{}, map[string]bool{}
	for name, ex := range st.Exits {
		c.m.Exits[name] = true
		if ex != nil {
			c.m.exitPos[name] = ex.Pos
		}
	}
	c.m.Intents = c.slotDefs(st.Intents, "")
	c.m.Priority = map[string]int{}
	for name, in := range st.Intents {
		if in != nil && in.Priority != 0 {
			c.m.Priority[name] = in.Priority
		}
	}
	c.m.PersonaModels = map[string]string{}
	for name, p := range st.Agents {
		if p != nil && p.Model != "" {
			c.m.PersonaModels[name] = p.Model
		}
	}
	c.m.Decider = appDecider(st.Decider)
	for _, s := range st.States {
		c.state(s, nil)
	}
	// root: "" loads upstream and a session starts in the state ""
	// (docs/compat/story.md); lint's root rule warns.
	if st.Root != "" && c.m.States[st.Root] == nil {
		c.refuse(st.RootPos, "root: state %q does not exist", st.Root)
	}
	if len(c.problems) > 0 {
		slices.SortStableFunc(c.problems, func(a, b Problem) int {
			return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
		})
		return nil, &CompileError{Problems: c.problems}
	}
	return c.m, nil
}

// foldForCompile folds st's imports and phases; a fold problem becomes a
// CompileError problem, prefixed with the import alias it came from.
func foldForCompile(st *story.Story, opts CompileOptions) (*fold.Folded, error) {
	f, err := fold.New(st, fold.Options{Bindings: opts.Bindings, Phases: phases.Expand})
	if err == nil {
		return f, nil
	}
	var fe *fold.Error
	if !errors.As(err, &fe) {
		return nil, err
	}
	ce := &CompileError{}
	for _, p := range fe.Problems {
		msg := p.Message // a top-story problem (phases) has no alias
		if p.Alias != "" {
			msg = "imports." + p.Alias + ": " + msg
		}
		ce.Problems = append(ce.Problems, Problem{Pos: p.Pos, Message: msg})
	}
	return nil, ce
}

// entryFile is the story file relative to the story directory
// (story.StoryFile when it is not below it).
func entryFile(st *story.Story) string {
	if abs, err := filepath.Abs(st.File); err == nil && st.Dir != "" {
		if rel, err := filepath.Rel(st.Dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return story.StoryFile
}

// appDecider is the app-level decider: (threshold 0.8 unless set); nil
// when the story has none.
func appDecider(d *story.Decider) *AppDecider {
	if d == nil {
		return nil
	}
	ad := &AppDecider{Agent: d.Agent, Schema: d.Schema, Prompt: d.Prompt, Threshold: 0.8}
	if d.Threshold != nil {
		ad.Threshold = *d.Threshold
	}
	return ad
}

type compiler struct {
	st       *story.Story
	opts     CompileOptions
	m        *Machine
	problems []Problem
	inline   int // depth of inline effects: lists being compiled (they never run)
	// depth of on_complete lists being compiled, whose set: literals
	// upstream keeps as JSON numbers
	onComplete int
}

// keyValues compiles the values of a set:, increment: or slots: block (verb),
// refusing a value that does not compile at its own position.
func (c *compiler) keyValues(kvs []story.KV, where, verb string) []setKV {
	var out []setKV
	for _, kv := range kvs {
		val := jsonvalue.Normalize(kv.Value)
		switch {
		case verb == "increment":
		case c.onComplete > 0:
			// an on_complete chain reaches upstream's job as JSON: every
			// number written in its set: or slots: a float64 (conformance
			// yaml-uint-type)
			val = jsonNumbers(val)
		default:
			// a whole number written in a set: or an emit_intent's slots: is
			// upstream's YAML uint64 (conformance yaml-uint-type)
			val = jsonvalue.YAMLInts(val)
		}
		v, err := compileValue(val)
		if err != nil {
			c.refuse(kv.Pos, "%s: %s.%s: %v", where, verb, kv.Key, err)
		}
		out = append(out, setKV{Key: kv.Key, Value: v})
	}
	return out
}

// withValue is an invoke's with: as upstream holds it: a whole number
// written there is its YAML uint64, which upstream's host.run refuses as an
// args element or a timeout, but in an on_complete chain, whose with:
// reaches the job as JSON (conformance run-int-uint64).
func (c *compiler) withValue(with map[string]any) any {
	v := jsonvalue.Normalize(with)
	if c.onComplete > 0 {
		return v
	}
	return jsonvalue.YAMLInts(v)
}

// warn records a finding that does not stop the run (Machine.Warnings).
func (c *compiler) warn(p story.Pos, format string, a ...any) {
	c.m.Warnings = append(c.m.Warnings, Problem{Pos: p, Message: fmt.Sprintf(format, a...)})
}

func (c *compiler) refuse(p story.Pos, format string, a ...any) {
	c.problems = append(c.problems, Problem{Pos: p, Message: fmt.Sprintf(format, a...)})
}

// target compiles a target: ("" = none, nil). Upstream renders a target
// only when the arm fires: a template that cannot compile fails that
// turn, not the load (conformance lint-late-templates).
func (c *compiler) target(src string) *text {
	if src == "" {
		return nil
	}
	t, err := compileTarget(c.m.pongo, src)
	if err != nil {
		return &text{src: src, err: err}
	}
	return t
}

// exitTarget compiles an arm's or a timeout's target, noting a written
// "@exit:NAME" in exitStates.
func (c *compiler) exitTarget(src string) *text {
	t := c.target(src)
	if name, ok := strings.CutPrefix(strings.TrimSpace(src), "@exit:"); ok && t != nil && !t.templated() {
		c.m.exitStates[name] = true
	}
	return t
}

// lateText compiles a pongo2 text upstream compiles only when it renders
// (say:, timeout.after, initial:): one that does not compile fails its
// render, not the load (conformance lint-late-templates,
// initial-late-compile).
func (c *compiler) lateText(src string) *text {
	t, err := compileText(c.m.pongo, src)
	if err != nil {
		return &text{src: src, err: err}
	}
	return t
}

// guard compiles a when: ("" = none, nil), refused at p as where.
func (c *compiler) guard(src string, p story.Pos, where string) *guard {
	g, err := compileGuard(src)
	if err != nil {
		c.refuse(p, "%s: %v", where, err)
	}
	return g
}

func (c *compiler) state(s *story.State, parent *State) {
	ns := &State{Path: s.Path, Name: s.Name, Parent: parent, Terminal: s.Terminal, Description: s.Description, Pos: s.Pos, On: map[string][]*Transition{}}
	if ns.Path == "" {
		ns.Path = s.Name
		if parent != nil {
			ns.Path = parent.Path + "." + s.Name
		}
	}
	c.m.States[ns.Path] = ns
	c.m.Order = append(c.m.Order, ns)
	if parent != nil {
		parent.Children = append(parent.Children, ns)
	}
	if f := c.m.Folded; f != nil {
		if si := f.Info(ns.Path); si != nil && len(si.IntentAliases) > 0 {
			ns.Aliases = si.IntentAliases
		}
	}
	ns.Parallel = s.Parallel || s.Type == "parallel"
	ns.Decider = s.Decider()
	if ns.Parallel {
		c.checkParallel(s, ns)
	}
	if s.Import != nil {
		c.refuse(s.Pos, "state %q: imported story %q is not executed by kitsoki run", ns.Path, s.Import.Alias)
	}
	if len(s.OnExit()) > 0 {
		c.warn(keyPos(s.Keys, "on_exit", s.Pos), "state %q: on_exit: the story format has no on_exit, so these effects never run; move them to the effects: of the transitions that leave the state", ns.Path)
	}
	if s.Initial() != "" && s.Type == "compound" { // conformance untyped-children, initial-late-compile
		ns.Initial = c.lateText(s.Initial())
	}
	if len(s.Intents) > 0 {
		ns.Intents = c.slotDefs(s.Intents, fmt.Sprintf("state %q: ", ns.Path))
		ns.Priority = map[string]int{}
		for name, in := range s.Intents {
			if in != nil {
				ns.Priority[name] = in.Priority
			}
		}
	}
	ns.OnEnter = c.effects(s.OnEnter, ns, "on_enter")
	if s.Timeout() != nil {
		ns.Timeout = c.timeout(s.Timeout(), ns)
	}
	for _, on := range s.On {
		for _, tr := range on.Arms {
			ns.On[on.Intent] = append(ns.On[on.Intent], c.transition(tr, ns, on.Intent))
		}
	}
	for _, ch := range s.Children {
		c.state(ch, ns)
	}
}

// checkParallel refuses a parallel state with under two regions, an initial: or a parallel parent.
func (c *compiler) checkParallel(s *story.State, ns *State) {
	if len(s.Children) < 2 {
		c.refuse(s.Pos, "state %q: a parallel state needs at least 2 regions (child states), it has %d", ns.Path, len(s.Children))
	}
	if s.Initial() != "" {
		c.refuse(s.InitialPos(), "state %q: a parallel state enters every region; remove its initial:", ns.Path)
	}
	if p := ns.Parent; p != nil && p.Parallel {
		c.refuse(s.Pos, "state %q: a parallel state cannot be a region of the parallel state %q; put a compound state between them", ns.Path, p.Path)
	}
}

// transition compiles one arm of ns's on.<intent>.
func (c *compiler) transition(tr *story.Transition, ns *State, intent string) *Transition {
	return &Transition{Default: tr.Default(), Hint: tr.GuardHint(), Pos: tr.Pos, Emits: tr.Emit(), exits: c.exitsVia(tr), View: armView(tr.View()),
		Target:  c.exitTarget(tr.Target),
		When:    c.guard(tr.When, tr.WhenPos(), fmt.Sprintf("state %q: on.%s: when", ns.Path, intent)),
		Effects: c.effects(tr.Effects, ns, "on."+intent)}
}

// armView is an arm's view: as upstream, a view: written empty (`""` or
// an element list with no element) is no view of its own, so the target's
// shows under the turn's narration; one that only renders empty (`{{ x }}`,
// elements whose when: fails) still replaces it (conformance
// transition-view-empty).
func armView(v *story.View) *story.View {
	if v == nil || (v.Kind == "template" && v.Template == "") || (v.Kind == "elements" && len(v.Elements) == 0) {
		return nil
	}
	return v
}

func (c *compiler) effects(list []*story.Effect, owner *State, where string) []*Effect {
	var out []*Effect
	for i, e := range list {
		if e == nil {
			continue
		}
		out = append(out, c.effect(e, owner, fmt.Sprintf("%s %s[%d]", owner.Path, where, i)))
	}
	return out
}

func (c *compiler) effect(e *story.Effect, owner *State, where string) *Effect {
	ne := &Effect{ID: e.ID(), With: c.withValue(e.With), OnError: e.OnError(), Once: e.Once(), Agent: e.Agent(), Pos: e.Pos, owner: owner}
	ne.Timeout, _ = e.CallTimeout() // a bad timeout: is validate's call-timeout error
	ne.onErrorPos, ne.targetPos = effectKeyPos(e, "on_error"), effectKeyPos(e, "target")
	ne.exits = c.exitsVia(e)
	ne.agentTmpl = c.agentAliasTemplate(e, where)
	if f := c.m.Folded; f != nil && e.Invoke != "" {
		if si := f.Info(owner.Path); si != nil && si.Story != nil && si.Story.Dir != c.m.Dir {
			ne.render = c.m.storyRenderer(si.Story)
		}
	}
	bad := func(format string, a ...any) { c.refuse(e.Pos, "%s: "+format, append([]any{where}, a...)...) }
	ne.Event, ne.Background = e.Emit(), e.Background()
	sub := strings.TrimPrefix(where, owner.Path+" ") // an empty list compiles to nil
	ne.completeNF, ne.hasCompleteNF = completeNonFinite(e.OnComplete())
	c.onComplete++
	ne.OnComplete = c.effects(e.OnComplete(), owner, sub+".on_complete")
	c.onComplete--
	c.inline++
	ne.Inline = c.effects(e.Effects(), owner, sub+".effects")
	c.inline--
	ne.Target = c.target(e.Target())
	ne.When = c.guard(e.When, e.Pos, where+": when")
	// The kind is the first of set > increment > say > invoke that holds
	// something: an empty set: {}, increment: {} or say: "" (or null) is
	// no kind, and the next one written runs (conformance effect-kind-empty).
	switch {
	case len(e.Set) > 0:
		ne.Kind = kindSet
		ne.Set = c.keyValues(e.Set, where, "set")
	case len(e.Increment()) > 0:
		ne.Kind = kindIncrement
		ne.Increment = c.keyValues(e.Increment(), where, "increment")
	case e.Say != "":
		ne.Kind = kindSay
		ne.Say = c.lateText(e.Say)
	case e.Invoke != "":
		c.invoke(e, ne, where, bad)
	}
	if e.EmitIntent() != "" || e.Written.Has("emit_intent") {
		c.emitIntent(e, ne, where, bad)
	}
	return ne
}

// invoke compiles an invoke: effect into ne: the handler (host_interfaces
// rewritten) must be served, with: must compile, and so must bind:.
func (c *compiler) invoke(e *story.Effect, ne *Effect, where string, bad func(string, ...any)) {
	ne.Kind = kindInvoke
	ne.Invoke = c.rewriteIface(e)
	if !c.handled(ne.Invoke) {
		via := ""
		if ne.Invoke != e.Invoke {
			via = " (bound by host_interfaces to " + ne.Invoke + ")"
		}
		bad("invoke %s%s: kitsoki run has no handler for %q (available: %s, host.agent.{ask,decide,extract,task,converse}); provide it with a host provider under .kitsoki/plugins/ or answer it from a recording with --host-cassette FILE", e.Invoke, via, ne.Invoke, strings.Join(c.hosts().Names(), ", "))
	}
	if err := expr.CompileValue(ne.With); err != nil {
		bad("invoke %s: with: %v", e.Invoke, err)
	}
	ne.Bind = c.binds(e.Bind(), where)
}

// binds compiles an invoke's bind: entries: a result path (a scalar's
// text; empty or null binds nothing: conformance probe 07), or a template
// when the value has {{ }}, which binds nothing when it does not compile
// (conformance lint-bind-values).
func (c *compiler) binds(kvs []story.KV, where string) []bindKV {
	var out []bindKV
	for _, kv := range kvs {
		var s string
		switch v := kv.Value.(type) {
		case string:
			s = v
		case nil:
		case int, int64, uint64, float64, bool:
			s = fmt.Sprint(v)
		default:
			c.refuse(kv.Pos, "%s: bind.%s: the result path must be a string", where, kv.Key)
			continue
		}
		b := bindKV{Key: kv.Key}
		if strings.Contains(s, "{{") {
			t, err := compileValue(s)
			if err != nil {
				c.warn(kv.Pos, "%s: bind.%s: %v; it binds nothing", where, kv.Key, err)
				out = append(out, b)
				continue
			}
			b.Tmpl = t
		} else {
			b.Path = s // one that finds nothing binds nothing (LookupBindPath)
		}
		out = append(out, b)
	}
	return out
}

// emitIntent compiles an effect's emit_intent: and its slots: into ne.
func (c *compiler) emitIntent(e *story.Effect, ne *Effect, where string, bad func(string, ...any)) {
	v, err := compileValue(e.EmitIntent())
	if err != nil {
		bad("emit_intent: %v", err)
	}
	ne.Emit = v
	ne.Slots = c.keyValues(e.Slots(), where, "slots")
}

// rewriteIface turns `iface.<name>.<op>` into `<default handler>.<op>`
// using host_interfaces (reference §2, resolveAllInterfaces).
func (c *compiler) rewriteIface(e *story.Effect) string {
	inv := e.Invoke
	if !strings.HasPrefix(inv, "iface.") {
		return inv
	}
	if c.inline > 0 {
		return inv // upstream leaves an inline effects: list as written; it never runs
	}
	name, op, ok := story.IfaceCall(inv)
	if !ok || op == "" {
		c.refuse(e.Pos, "invoke %q: expected iface.<name>.<op>", inv)
		return inv
	}
	hi := c.st.HostInterfaces[name]
	if hi == nil || hi.Default == "" {
		c.refuse(e.Pos, "invoke %q: host_interfaces.%s has no default: handler to run it", inv, name)
		return inv
	}
	return hi.Default + "." + op
}

// timeout compiles a state's timeout: block; a literal after: is parsed now.
func (c *compiler) timeout(t *story.Timeout, ns *State) *Timeout {
	nt := &Timeout{Pos: t.Pos}
	if a := strings.TrimSpace(t.After); a == "" {
		c.refuse(t.Pos, "state %q: timeout: missing 'after' field", ns.Path)
	} else {
		nt.After = c.lateText(a)
		if !story.TemplatedAt(story.FieldTimeoutAfter, a) {
			// a negative one loads and never arms, as upstream
			if _, err := duration.Parse(a); err != nil && !duration.Never(a) {
				c.refuse(t.Pos, "state %q: timeout.after: %v", ns.Path, err)
			}
		}
	}
	if tg := strings.TrimSpace(t.Target); tg == "" {
		c.refuse(t.Pos, "state %q: timeout: missing 'target' field", ns.Path)
	} else {
		nt.Target = c.exitTarget(tg) // "." loads and never fires (DeadTimeoutTarget)
	}
	return nt
}

// exitsVia are the imports: exit mappings a folded arm or on_complete
// entry's target went through.
func (c *compiler) exitsVia(site any) []exitMark {
	if c.m.Folded == nil {
		return nil
	}
	var out []exitMark
	for _, u := range c.m.Folded.ExitsVia(site) {
		out = append(out, exitMark{name: u.Name, pos: u.Pos})
	}
	return out
}

// effectKeyPos is the position of an effect key's value, else the
// effect's.
func effectKeyPos(e *story.Effect, key string) Pos {
	if p, ok := e.KeyPos(key); ok && p.Line > 0 {
		return p
	}
	return e.Pos
}

// keyPos is the position of key's value, else def.
func keyPos(keys map[string]story.Pos, key string, def story.Pos) story.Pos {
	if p, ok := keys[key]; ok && p.Line > 0 {
		return p
	}
	return def
}
