package fold

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// corpusDir is the shared upstream corpus, skipping the test when it is
// not beside the checkout.
func corpusDir(t testing.TB) string { return storytest.Shared(t, "corpus") }

func mustFold(t *testing.T, st *story.Story) *Folded {
	t.Helper()
	f, err := New(st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func eq[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got  %#v\n want %#v", what, got, want)
	}
}

func state(t *testing.T, f *Folded, path string) *story.State {
	t.Helper()
	s := stateAt(f, path)
	if s == nil {
		t.Fatalf("no folded state %q; have %v", path, f.Paths())
	}
	return s
}

// targets lists "intent -> target" for each arm of a state's on:.
func targets(s *story.State) []string {
	var out []string
	for _, on := range s.On {
		in := on.Intent
		for _, t := range on.Arms {
			out = append(out, in+" -> "+t.Target)
		}
	}
	return out
}

// pairs renders a set: effect's keys as "k=v k=v".
func pairs(kvs []story.KV) string {
	var kv []string
	for _, s := range kvs {
		kv = append(kv, fmt.Sprintf("%s=%v", s.Key, s.Value))
	}
	return strings.Join(kv, " ")
}

// effs renders a list of effects one string each.
func effs(list []*story.Effect) []string {
	var out []string
	for _, e := range list {
		switch {
		case len(e.Set) > 0:
			out = append(out, "set "+pairs(e.Set))
		case len(e.Increment()) > 0:
			out = append(out, fmt.Sprintf("increment %s=%v", e.Increment()[0].Key, e.Increment()[0].Value))
		case e.Say != "":
			out = append(out, "say "+e.Say)
		case e.Invoke != "":
			out = append(out, "invoke "+e.Invoke)
		case e.Target() != "":
			out = append(out, "target "+e.Target())
		default:
			out = append(out, "?")
		}
	}
	return out
}

func worldNames(st *story.Story) []string {
	var out []string
	for _, w := range st.World {
		out = append(out, w.Name)
	}
	return out
}

func TestImportsSmoke(t *testing.T) {
	st := storyload.Load(t, filepath.Join(corpusDir(t), "imports_smoke/parent"), story.Options{})
	f := mustFold(t, st)
	fs := f.Story
	eq(t, "paths", f.Paths(), []string{"main", "pr_landed", "sub", "sub.idle", "sub.working", "sub.processing"})
	eq(t, "world", worldNames(fs), []string{"current_ticket", "last_pr_url", "last_error", "bailed", "sub__ticket_id", "sub__pr_url", "sub__fail_reason"})
	if len(fs.Imports) != 0 || len(fs.ImportOrder) != 0 {
		t.Errorf("folded story still has imports: %v", fs.ImportOrder)
	}

	w := state(t, f, "sub")
	eq(t, "wrapper type/initial", []string{w.Type, w.Initial()}, []string{"compound", "idle"})
	// story-runtime §6.1, runs/imp.jsonl turn 1: resets in sorted order, then world_in.
	eq(t, "wrapper on_enter", effs(w.OnEnter), []string{"set sub__fail_reason=", "set sub__pr_url=", "set sub__ticket_id={{ world.current_ticket }}"})
	if !f.Info("sub").Wrapper || f.Info("sub.idle").Wrapper {
		t.Error("wrapper flag wrong")
	}

	eq(t, "idle arcs", targets(state(t, f, "sub.idle")), []string{"sub__start_work -> ../working", "sub__bail -> main"})
	eq(t, "idle bail effects", effs(state(t, f, "sub.idle").Arms("sub__bail")[0].Effects), []string{"set bailed=true"})
	// The override replaced working whole; its world reference is child-scope.
	wk := state(t, f, "sub.working")
	eq(t, "override view", wk.View.Template, "[override] Custom working room for {{ world.sub__ticket_id }}.\n")
	eq(t, "override description", wk.Description, "Custom working state (overridden by parent).")
	// runs/imp.jsonl turn 3: the child's set (renamed) then the exit set (parent scope).
	eq(t, "finish effects", effs(wk.Arms("sub__finish")[0].Effects), []string{"set sub__pr_url={{ slots.url }}", "set last_pr_url={{ world.sub__pr_url }}"})
	eq(t, "finish target", wk.Arms("sub__finish")[0].Target, "pr_landed")
	pr := state(t, f, "sub.processing")
	eq(t, "on_complete", effs(pr.OnEnter[0].OnComplete()), []string{"set sub__fail_reason=", "target ../working"})
	eq(t, "background id", pr.OnEnter[0].ID(), "work-{{ world.sub__ticket_id }}")

	// Intents: child intents lifted, go_main exported into the child.
	for _, n := range []string{"begin_substory", "go_main", "sub__start_work", "sub__finish", "sub__bail", "sub__go_main"} {
		if fs.Intents[n] == nil {
			t.Errorf("intent %q missing", n)
		} else if fs.Intents[n].Name != n {
			t.Errorf("intent %q has Name %q", n, fs.Intents[n].Name)
		}
	}
	if fs.Intents["start_work"] != nil {
		t.Error("start_work was not imported, must not be bare")
	}
	if sl := fs.Intents["sub__finish"].Slots["url"]; sl == nil || !sl.Required {
		t.Error("sub__finish lost its slot")
	}
	for _, c := range [][3]string{
		{"sub.idle", "start_work", "sub__start_work"},
		{"sub.working", "finish", "sub__finish"},
		{"sub.working", "sub__finish", "sub__finish"},
		{"main", "start_work", "start_work"},
	} {
		got, _ := resolveIntent(f, c[0], c[1])
		eq(t, "resolveIntent "+c[0]+" "+c[1], got, c[2])
	}

	if hi := fs.HostInterfaces["sub__reporter"]; hi == nil || hi.Default != "host.run" || hi.Name != "sub__reporter" {
		t.Errorf("lifted interface: %+v", hi)
	}
	eq(t, "dirs", []string{dirOf(f, "main"), dirOf(f, "sub"), dirOf(f, "sub.idle"), dirOf(f, "sub.working")},
		[]string{st.Dir, st.Dir, st.Imports["sub"].Child.Dir, st.Imports["sub"].Child.Dir})
	eq(t, "aliases", f.Aliases(), []AliasInfo{{Path: "sub", Alias: "sub", Source: "../sub_story", File: st.Imports["sub"].Child.File, Dir: st.Imports["sub"].Child.Dir, Story: st.Imports["sub"].Child}})
	if f.Info("sub.idle").Story != st.Imports["sub"].Child || f.Info("main").Story != st || f.Info("sub").Story != st {
		t.Error("StateInfo.Story wrong")
	}
}

func TestFrontierEvent(t *testing.T) {
	st := storyload.Load(t, filepath.Join(corpusDir(t), "frontier_event"), story.Options{})
	f := mustFold(t, st)
	robbery := abs(t, filepath.Join(corpusDir(t), "robbery"))
	eq(t, "paths", f.Paths(), []string{"scouting", "bandits", "bandits.encounter"})
	w := state(t, f, "bandits")
	eq(t, "wrapper on_enter", effs(w.OnEnter), []string{
		"set bandits__member_lost=false", "set bandits__outcome=", "set bandits__paid_amount=0",
		"set bandits__party_alive={{ world.party_alive }}", "set bandits__party_food_lbs=0",
		"set bandits__party_money={{ world.party_money }}", "set bandits__threat_level={{ world.threat_level }}"})
	enc := state(t, f, "bandits.encounter")
	// Standalone importer: its own @exit: stays for the engine (__exit__<n>).
	eq(t, "encounter arcs", targets(enc), []string{
		"bandits__pay -> @exit:resolved", "bandits__pay -> .", "bandits__fight -> @exit:resolved",
		"bandits__fight -> @exit:member_lost", "bandits__flee -> @exit:fled", "bandits__look -> ."})
	pay := enc.Arms("bandits__pay")[0]
	eq(t, "pay guard", pay.When, "world.bandits__party_money >= world.bandits__threat_level * 50")
	eq(t, "pay effects", effs(pay.Effects), []string{"set bandits__paid_amount={{ world.bandits__threat_level * 50 }} bandits__outcome=paid", "invoke iface.bandits__narrator.close", "set encounter_kind=paid paid_amount={{ world.bandits__paid_amount }}"})
	eq[any](t, "prompt rebased", enc.OnEnter[0].With["prompt"], filepath.Join(robbery, "prompts/encounter_intro.md"))
	// The importer's own prompt is not re-based (it is the top story).
	eq[any](t, "own prompt", state(t, f, "scouting").OnEnter[0].With["prompt"], "prompts/scout_brief.md")
	eq(t, "dir", dirOf(f, "bandits.encounter"), robbery)
	eq(t, "upstream view dir", f.UpstreamViewDir("bandits.encounter"), robbery)
	eq(t, "scouting dir", dirOf(f, "scouting"), st.Dir)
	if hi := f.Story.HostInterfaces["bandits__narrator"]; hi == nil || hi.Default != "host.run" {
		t.Errorf("bandits__narrator: %+v", hi)
	}
	if len(f.Story.Exits) != 3 {
		t.Errorf("the importer's own exits must stay: %v", f.Story.Exits)
	}
	for _, rw := range enc.RelevantWorld {
		if !strings.HasPrefix(rw.Name, "bandits__") {
			t.Errorf("relevant_world %q not renamed", rw.Name)
		}
	}
	// View elements are child strings too.
	found := false
	for _, el := range enc.View.Elements {
		if strings.Contains(el.Text, "world.bandits__party_alive") {
			found = true
		}
		if strings.Contains(el.Text, "world.party_alive") {
			t.Errorf("view element not rewritten: %q", el.Text)
		}
	}
	if !found {
		t.Error("no rewritten view element")
	}
}

func TestNestedImports(t *testing.T) {
	st := storyload.Load(t, "testdata/nested/top", story.Options{})
	f := mustFold(t, st)
	fs := f.Story
	eq(t, "paths", f.Paths(), []string{"start", "end", "mid", "mid.lobby", "mid.leaf", "mid.leaf.work", "mid.leaf.work.inner", "mid.leaf.work.sibling", "mid.leaf.broken"})
	eq(t, "world", worldNames(fs), []string{"ticket", "result", "last_error", "mid__label", "mid__outcome", "mid__counter", "mid__nodefault", "mid__leaf__input", "mid__leaf__answer"})
	// The inner wrapper is a mid state: the outer fold rewrote its entry effects.
	eq(t, "inner wrapper", effs(state(t, f, "mid.leaf").OnEnter), []string{"set mid__leaf__answer=", "set mid__leaf__input={{ world.mid__label }}"})
	eq(t, "outer wrapper", effs(state(t, f, "mid").OnEnter), []string{"set mid__counter=0", "set mid__leaf__answer=", "set mid__leaf__input=", "set mid__outcome=none", "set mid__label={{ world.ticket }}"})

	inner := state(t, f, "mid.leaf.work.inner")
	eq(t, "inner arcs", targets(inner), []string{
		"mid__leaf__step -> ../sibling",     // written relative: unchanged
		"mid__leaf__finish -> end",          // @exit:done -> mid's @exit:finished -> top's end
		"mid__leaf__fail -> ../../../lobby", // @exit:failed -> mid's bare lobby, rewritten by the outer fold
	})
	// Exit sets stack: leaf's own, mid's (rewritten by the outer fold), top's.
	eq(t, "finish effects", effs(inner.Arms("mid__leaf__finish")[0].Effects), []string{
		"set mid__leaf__answer={{ world.mid__leaf__answer }}!", "set mid__outcome={{ world.mid__leaf__answer }}", "set result={{ world.mid__outcome }}"})
	eq(t, "finish guard (reserved key bare)", inner.Arms("mid__leaf__finish")[0].When, "world.mid__leaf__answer != '' && world.last_error == ''")
	eq(t, "timeout (⚠ rewritten like upstream)", inner.Timeout().Target, "../../broken")
	mk := inner.OnEnter[0]
	eq(t, "iface invoke", mk.Invoke, "iface.mid__leaf__tool.make")
	eq(t, "on_error", mk.OnError(), "../../broken")
	eq(t, "bind key", mk.Bind()[0].Key, "mid__leaf__answer")
	eq(t, "id", mk.ID(), "make-{{ world.mid__leaf__input }}")
	ask := inner.OnEnter[1]
	leafDir := abs(t, "testdata/nested/leaf")
	eq(t, "ask with", ask.With, map[string]any{"agent": "mid__leaf__helper", "prompt": filepath.Join(leafDir, "prompts/ask.md"), "schema": filepath.Join(leafDir, "schemas/out.json")})
	// the exits' sets are not applied on an on_complete target (oncomplete-exit-no-set)
	eq(t, "on_complete", effs(inner.OnEnter[2].OnComplete()), []string{"set mid__leaf__answer={{ world.mid__leaf__answer }}", "target end"})
	eq(t, "sibling", targets(state(t, f, "mid.leaf.work.sibling")), []string{"mid__leaf__step -> ../../broken"})
	broken := state(t, f, "mid.leaf.broken")
	eq(t, "broken", targets(broken), []string{"mid__leaf__step -> mid.leaf.work.inner", "mid__leaf__finish -> {{ world.answer ? 'work' : 'broken' }}"}) // a template as written (import-target-template-world)
	eq(t, "broken enter", effs(broken.OnEnter), []string{"say Broken: {{ world.last_error }} {{ world.mid__leaf__answer }}", "invoke host.run"})
	// on_error @exit:failed -> mid's bare lobby (parent scope, kept by the leaf
	// fold) -> the outer fold sees it at depth 1 of mid: ../../lobby = mid.lobby.
	eq(t, "on_error exit", broken.OnEnter[1].OnError(), "../../lobby")
	lobby := state(t, f, "mid.lobby")
	eq(t, "lobby arcs", targets(lobby), []string{"mid__advance -> ../leaf", "mid__ping -> .", "mid__home -> end"})
	eq(t, "lobby increment", effs(lobby.Arms("mid__advance")[0].Effects), []string{"increment mid__counter=1"})
	eq(t, "lobby description", lobby.Description, "Lobby for {{ world.mid__label }}")

	// Intents: prefixes compose; ping imported bare; home exported into mid.
	for _, n := range []string{"go", "home", "ping", "mid__ping", "mid__advance", "mid__home", "mid__leaf__step", "mid__leaf__finish", "mid__leaf__fail"} {
		if fs.Intents[n] == nil {
			t.Errorf("intent %q missing", n)
		}
	}
	eq(t, "inner aliases", f.Info("mid.leaf.work.inner").IntentAliases, map[string]string{
		"step": "mid__leaf__step", "finish": "mid__leaf__finish", "fail": "mid__leaf__fail",
		"leaf__step": "mid__leaf__step", "leaf__finish": "mid__leaf__finish", "leaf__fail": "mid__leaf__fail"})
	got, ok := resolveIntent(f, "mid.leaf.work.inner", "finish")
	eq(t, "resolve", []any{got, ok}, []any{"mid__leaf__finish", true})
	got, ok = resolveIntent(f, "mid.leaf.work", "step")
	eq(t, "no alias on the compound", []any{got, ok}, []any{"step", false})

	// Interfaces: the grandchild's, bound from the top by its lifted name.
	eq(t, "ifaces", len(fs.HostInterfaces), 1)
	if hi := fs.HostInterfaces["mid__leaf__tool"]; hi == nil || hi.Default != "host.top_tool" {
		t.Errorf("mid__leaf__tool: %+v", hi)
	}
	if p := fs.Agents["mid__leaf__helper"]; p == nil || p.Name != "mid__leaf__helper" || p.SystemPromptResolved != "You help." {
		t.Errorf("persona: %+v", p)
	}
	eq(t, "hosts", fs.Hosts, []string{"host.run", "host.agent.ask"})
	eq(t, "dirs", []string{dirOf(f, "mid.lobby"), dirOf(f, "mid.leaf"), dirOf(f, "mid.leaf.broken")}, []string{abs(t, "testdata/nested/mid"), abs(t, "testdata/nested/mid"), leafDir})
	// Upstream picks the renderer by the first segment (⚠ §6.3).
	eq(t, "upstream view dir", f.UpstreamViewDir("mid.leaf.broken"), abs(t, "testdata/nested/mid"))
	eq(t, "alias chain", f.Info("mid.leaf.broken").Alias, "mid.leaf")
	eq(t, "alias paths", []string{f.Aliases()[0].Path, f.Aliases()[1].Path}, []string{"mid", "mid.leaf"})
	if len(fs.Manifests) != 3 {
		t.Errorf("manifests: %v", fs.Manifests)
	}
}

func TestOverrides(t *testing.T) {
	st := storyload.Load(t, "testdata/overrides/parent", story.Options{})
	f := mustFold(t, st)
	childDir, parentDir := abs(t, "testdata/overrides/child"), abs(t, "testdata/overrides/parent")
	eq(t, "paths", f.Paths(), []string{"hub", "c", "c.room", "c.room.a", "c.other"})
	room := state(t, f, "c.room")
	eq(t, "override description", room.Description, "override {{ world.c__k }}")
	eq(t, "override initial", room.Initial(), "a")
	eq(t, "override nested arc", targets(state(t, f, "c.room.a")), []string{"c__go -> ../../other"})
	eq(t, "override dir (child, as upstream)", dirOf(f, "c.room.a"), childDir)
	if in := f.Story.Intents["c__go"]; in == nil || in.Description != "overridden go" || in.Slots["speed"] == nil {
		t.Errorf("overridden intent: %+v", in)
	}
	other := state(t, f, "c.other")
	var prompts []any
	for _, e := range other.OnEnter {
		prompts = append(prompts, e.With["prompt"])
	}
	eq(t, "prompts", prompts, []any{
		filepath.Join(parentDir, "prompts/p_parent.md"), // overrides.prompts swap
		filepath.Join(childDir, "prompts/q.md"),         // re-based: the file exists
		filepath.Join(childDir, "Say hi"),               // inline text too, as upstream
		"{{ world.c__k }}.md",                           // templated: not re-based
	})
	eq[any](t, "context prompt_path", other.OnEnter[1].With["context"], map[string]any{"prompt_path": filepath.Join(childDir, "prompts/q.md")})
	eq(t, "exit", targets(other), []string{"c__leave -> hub"})
}

func TestKitsokiSource(t *testing.T) {
	repo := abs(t, "testdata/repo")
	st := storyload.Load(t, "testdata/kitsoki", story.Options{LookupEnv: func(k string) (string, bool) {
		if k == "KITSOKI_REPO" {
			return repo, true
		}
		return "", false
	}})
	f := mustFold(t, st)
	eq(t, "paths", f.Paths(), []string{"start", "kid", "kid.idle"})
	eq(t, "arcs", targets(state(t, f, "kid.idle")), []string{"kid__poke -> ../idle"})
	eq(t, "dir", dirOf(f, "kid.idle"), filepath.Join(repo, "stories/kid"))
	eq(t, "wrapper", effs(state(t, f, "kid").OnEnter), []string{"set kid__n=1"})
	eq(t, "source", f.Aliases()[0].Source, "@kitsoki/kid")
}

func TestErrorsNameAliasFileAndPosition(t *testing.T) {
	st, _ := lint.Load("testdata/errors/parent", story.Options{LookupEnv: storyload.NoEnv, Trees: storyload.Trees()})
	if st == nil {
		t.Fatal("no story")
	}
	_, err := New(st, Options{})
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("want *fold.Error, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"parent/app.yaml:12:3: imports.lib: source \"@kitsoki/absent\": the child story was not loaded (set KITSOKI_REPO",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
	// The unloaded child stops the fold before the rest is reported; fold
	// the other alias alone to see its problems.
	delete(st.Imports, "lib")
	st.ImportOrder = []string{"c"}
	_, err = New(st, Options{})
	if err == nil {
		t.Fatal("no error")
	}
	msg = err.Error()
	for _, want := range []string{
		"parent/app.yaml:9:5: imports.c: overrides: states.missing: child",
		"child/app.yaml:12:21: imports.c: state \"s\": target \"@exit:gone\": the import maps no exits.gone.to",
		"child/app.yaml:13:21: imports.c: state \"s\": target \"../../up\" walks above the child's namespace (depth 0, 2 `..` segments)",
		"parent/app.yaml:5:3: imports.c: host_bindings.nosuch: no matching host_interface (looked for \"c__nosuch\"",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
}

// resolveIntent maps a typed intent name to its arc name at statePath as
// the engine does with the states' IntentAliases (the first alias walking
// up); ok is false, name unchanged, when none.
func resolveIntent(f *Folded, statePath, name string) (string, bool) {
	p := normPath(statePath)
	for p != "" {
		if si := f.states[p]; si != nil {
			if to, ok := si.IntentAliases[name]; ok {
				return to, true
			}
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return name, false
}

// stateAt is the first folded state at a dotted path ("a.b" or "a/b").
func stateAt(f *Folded, path string) *story.State {
	p := normPath(path)
	for _, s := range f.Story.AllStates() {
		if s.Path == p {
			return s
		}
	}
	return nil
}

// dirOf is the directory of the story that declared the state at path (the
// top story's for unknown paths).
func dirOf(f *Folded, path string) string {
	if si := f.Info(path); si != nil {
		return si.Dir
	}
	return f.Story.Dir
}
