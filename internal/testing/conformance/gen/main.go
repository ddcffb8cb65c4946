// Command gen writes random small stories with flow fixtures for a
// differential run against the existing engine (issue 27, "beyond the real
// fixtures"), and compares the two engines' reports. It is a test-only
// tool: it never runs either engine itself, and no test calls the oracle.
//
//	go run ./internal/testing/conformance/gen write -n 300 -seed 1 [-known] [-kind agent] DIR
//	internal/testing/conformance/gen/compare.sh DIR   # runs both engines, then:
//	go run ./internal/testing/conformance/gen diff DIR
//	internal/testing/conformance/gen/lintscore.sh DIR # validate's verdicts, then:
//	go run ./internal/testing/conformance/gen lintscore DIR
//
// Each mode prints its flags on -h (cli.go); an operand starting with '-'
// is refused rather than taken for a directory.
//
// lintscore (lintscore.go) counts, per story of a batch compare.sh has
// run, the fixtures upstream fails that `kitsoki validate` flags (recall)
// and those it passes that validate flags (false positives): flags with a
// finding that says the fixture fails (conformance.PredictsFailure, in the
// fixture's own document) or a story error that stops it running.
//
// write creates DIR/NNN/app.yaml, DIR/NNN/flows/f.yaml and, for a story
// that imports a child, DIR/NNN/kid/app.yaml. diff reads each story's
// existing.json and ours.json (the engines' `test flows --json` reports)
// and prints, per story that disagrees, the first turn where the verdict,
// resting state, view, failure texts, the world the turn's world.update
// events leave, or the turn's events (as the conformance goldens compare
// them: conformance.EventDiffs) or the payloads of the kinds an
// expect_events effect matches (payload_diff.go) differ; the last line
// counts them. A story upstream aborted (its flow rig stops the whole run
// on a turn error and writes no report) compares by the turn its error
// names, which must fail as a turn here too (abort_diff.go); an abort of
// upstream's own waiting stays not comparable. A differing story copied
// from a golden with a DIFFERS file (-kind mutate, storymut) is marked so:
// its README.md most likely documents the difference.
//
// World defaults, set: values, with: and host data values, and the
// fixtures' initial_world and expect_world values are drawn from a table
// of YAML scalar forms (forms.go): integers in every base, floats, plain
// numbers without a decimal point, strings that look like other things,
// quoted numbers. -known adds .inf/.nan, which differ on purpose
// (docs/compat/yaml-numbers.md), and a non-zero default for the int key
// n, whose increments replay differently on purpose (docs/compat/engine.md).
//
// -kind tmpl writes the second kind of story (tmpl.go): world values of
// every shape, pongo2 views, expr-lang guards and {{ }} set: values
// ({{ if }} conditions of every type, now and then one that is not a bool,
// which fails upstream; the untyped item root in and outside a range; a
// key declared with no default and `"k" in world`).
// -kind agent writes stories with agent decision points, and fixtures
// that feed their answers (agent.go, agent_fixture.go), some with the
// meta (cost_usd, usage) an agent transport reports, and turns that
// assert turn_cost_usd and session_cost_usd.
// -emits (flow and legacy kinds) adds parallel emit: events to arms, as
// an arm's emit: list or an effect entry, which the other regions of an
// active parallel state take as intents.
// -trail (flow, legacy, mutate and storymut kinds) appends a mark to a
// world string (t; zz_trail in a copied story, storymut_trail.go) in every
// on_enter and arm (E:<state>; T:<state>.<intent>;), so the order the
// effects ran in shows in the world each turn compares.
// -extras (flow and legacy kinds) adds what the flow kind's draws leave
// out (extras.go): timeouts on compounds, parallel roots, region leaves
// and an imported child's states, with relative, templated and compound
// targets; "*" wildcard arms; effect when: guards; two-kind effect
// entries; guard_hint and default: arms; templated arc targets.
// -more (flow and legacy kinds) adds constructs no other draw makes
// (more.go): once: true invokes over set and unset bind targets,
// emit_intent with slots:, transition views, explicit self re-entry,
// guarded and templated on_complete target entries.
// -gates (flow and legacy kinds) adds decision gates (gates.go): decider:
// human and llm pins on states of every kind, hidden: ping and put,
// literal emit_intent entries naming a state's own intents, and mode:
// staged (or one-shot) on the fixture.
// -override (flow and legacy kinds) adds world_override: to the fixture's
// turns (override.go): the story's keys, last_error, host_error, the
// child's projection, an undeclared key, with values of every type.
// -deep (flow and legacy kinds) adds a third level of states (c.c2 and
// the region leaf p.ra.a2 become compounds), targets written relative
// (../x, ..) and with slashes, a state-local intent, and parallel emit:
// events on guarded, invoke, set and on_complete entries and in on_enter
// lists (deep.go).
// -jobs (flow kind) adds background jobs where the other draws put none
// (jobs.go): in region leaves, on the parallel root's and a compound's
// on_enter, in the imported child; three namespaces with their own delays,
// one failing; on_complete chains with nested jobs, emits, sync calls and
// guarded, templated, relative and region-leaf targets; timeouts on job
// states shorter and longer than the delays; clock turns that always cover
// every delay (a partial advance aborts upstream); every draw's timeout,
// on_complete target and chain on_error naming a state entering which
// submits a job re-aimed (a job submitted in a clock drain aborts upstream).
// Several jobs ending in one advance land in a random order upstream: a
// known race.
// -redirects (flow and legacy kinds) aims failing calls' on_error at the
// places a redirect is measured from (redirects.go): the declaring state,
// its parent, a background job's origin, ".", "..", the parallel root, a
// region leaf; in on_complete chains after an emit_intent hop, and in the
// on_enter of states targets land on.
// -wide (flow and legacy kinds) adds a third region to the parallel state
// (writing one when the story has none) and emit waves across the regions
// (wide.go): intents w1..w3 whose region arms emit the next waves (at
// times backward, a cycle the depth cap of 24 ends), guarded arms, arms on
// a region compound, a terminal region leaf, arms into p, and fixture
// turns sending the waves.
// -shapes (flow and legacy kinds) writes effect entries whose keys no
// other draw puts together (shapes.go): once: with on_error on a failing
// call, emit: riding a failing call, emit_intent beside a set, increment,
// say or call, two kinds of which only the first runs, emit: beside
// emit_intent, on_complete targets beside inline effects:; as -jobs does,
// no target it draws names a state entering which submits a job.
// -asserts (flow and legacy kinds) adds the fixture assertions real
// fixtures write and the flow kind's did not (asserts.go): session
// expect_no_errors, expect_terminal, event counts and forbidden calls;
// turn expect_state in every path form, view, host-call, event, inbox,
// jobs, error and slot checks, templated slots, display_input, with
// drawn values that pass at times and fail at others.
// -rare (flow and legacy kinds) draws what only the hand-made
// conformance goldens reached before (rare.go): an on_error loop (q1, q2)
// past the redirect depth cap entered by a new intent cap (also through a
// post-bind emit_intent hop), with the assertions a capped turn is
// checked by; set: values computed to
// +Inf/-Inf/NaN into the any keys, n and a float key f; templated targets
// rendering @exit:done in the story and its child; on_complete chains
// whose bind and on_error "." failure upstream drops while the chain
// reads them; background jobs whose work is an agent call (ask, decide,
// task), answered by host_handlers stubs, a host cassette (a second
// fixture flows/j.yaml) or nothing, with on_complete chains reading the
// job's status, submission and meta, and clock turns asserting that no
// cost was charged (rare_agentjobs.go); emit_intent hops whose slots render
// NaN or ±Inf in on_complete chains and timeout targets' on_enter, whose
// transition upstream's log loses (rare_losthops.go).
// -bindings (flow, legacy, agent and host kinds) gives the fixtures
// host_bindings (bindings.go): built-ins bound to themselves or to others,
// agent verbs, iface-like and unbound keys, an empty map, beside stubs, a
// host cassette or nothing; the agent kind gets a fixture fed by bindings
// alone; half the stories ship bin/claude, a claude stand-in logging each
// call to claude.calls, which compare.sh puts on PATH.
// -blocks (flow, legacy, tmpl, view and host kinds) rewrites the story's
// strings as the YAML block scalars real stories write (blocks.go): views,
// view elements, say:, host stdout, guards split over lines, targets and
// set:/with: values, literal and folded, with every chomping.
// -wrap N (every kind) then rewrites each story as the imported child kid
// of N one-state parents (wrap.go): the top's fixtures are the story's,
// renamed as the fold renames (intents and world keys kid__x, states
// kid.x, parallel configurations path by path, @exit states the innermost
// parent's done, the recording an input: turn reads, expected events'
// intents and world keys, expect_error's allowed intents; a root start
// with a seeded world, or of a story whose root's entry runs an on_enter,
// or that bounds its event count, starts inside, since entering an import
// resets the child's world and runs the on_enter a fixture's start skips;
// a legacy document with no start stays at "" as upstream starts it;
// wrap_fixture.go), dotted and slashed targets in the
// story's files (and a phase template's {{ tpl.id }}-led ones) gain the
// kid. prefix, since they name the folded tree from the top, and a middle level gets
// the story's views/. Upstream passes testdata/wrap's fixtures wrapped at
// one and two levels as it does unwrapped.
// -kind legacy writes the flow kind's stories with fixtures on the legacy
// path (use_orchestrator: false, upstream's machine alone, as most real
// fixtures run): every fixture names its start state, and no turn
// advances the clock (fatal there upstream).
// -kind view writes stories whose views draw every typed element and
// view form (view.go), on leaves, compounds, parallel regions,
// transitions and after an on_error redirect, with world values of
// every shape printed in them; the fixture visits every state.
// -kind starlark writes stories whose states run host.starlark.run
// scripts (starlark.go): values of every shape, ctx reads, http and
// inspect calls answered by cassettes, failures, binds; fixtures with
// each kind of cassette, host_bindings and stubs (-known adds YAML
// integer literals reaching a script and kitsoki's wider dialect).
// -cassettes (starlark kind) writes the HTTP cassettes in the forms real
// ones take (cassettes.go): exchanges under request: or under both
// request: and match: (another url in each), record_mode none, once or
// empty, lower-case methods.
// -kind host writes stories that call host namespaces from on_enter, arms
// and on_complete, sync and in the background (host.go), with fixtures
// feeding every stub form and asserting calls, inbox and jobs
// (host_fixture.go).
// -real (host kind) writes stories whose fixtures name host_bindings, so
// the built-in handlers run for real (host_real.go): host.run,
// artifacts_dir, append_to_file, inbox.add, transport.post and
// answer_clarification with good and bad arguments, and the built-ins
// that answer without a program or files (IDE, chat, gh, cpt, slidey,
// ffmpeg, diff.open, the ticket tracker with no issues/, host.agent.search
// with no embedder), and fixtures
// asserting expect_files on what they wrote. They write files into the
// cwd: compare.sh runs each engine on its own fresh copy of the
// story.
// -real -vcs (host kind) writes stories calling the built-ins that work
// on a repository, tickets and a Go module their setup makes in the cwd
// (host_vcs.go): host.git, host.git_worktree, host.local,
// host.local_files.ticket's writes and host.workspace_manager.get, by
// name, prefix and iface, bound and unbound, and as background jobs.
// -kind intent writes stories whose intents carry many typed slots
// (required, defaults, enums; global, state-local and checkpoint
// declarations) read by guards, effects, views and host-call args, with
// fixtures on both paths sending every YAML value type to every slot
// type, undeclared and unhandled intents and missing slots (intent.go,
// intent_fixture.go).
// -kind expect writes small stories (terminal and non-terminal leaves, a
// compound, a parallel state, an @exit, failing guards, a required slot)
// whose fixtures use every key upstream's runner reads, on both paths,
// with values that pass and values that fail (expect.go,
// expect_fixture.go): expect_terminal, expect_state_in, expect_world_full,
// expect_error's sub-keys, mode, display_input, ignored and unknown keys.
// -kind import writes parents importing children and a grand-child
// (import.go, import_story.go), drawing every key of an import, with
// fixtures driving aliased, bare and lifted intents; about one story in
// five carries a load-time mistake (mistake.txt names it) whose
// `validate` errors are compared by hand.
// -kind phase writes stories whose states come from phase templates
// expanded at load (phase.go, phase_story.go): parameters of every type,
// {param} state keys, {{ tpl.* }} and {{ phase.next.* }} bodies, graphs
// with cycles, budgets, entry on_enter and checkpoint intents, some in an
// include: file, some with a load-time mistake whose message diff compares.
// -kind intentfix writes the intent kind's stories with routing fixtures
// for `test intents` instead of flow fixtures (intentfix.go,
// intentfix_fixture.go): a recording, intents documents of every key and
// value form, some malformed, and flags (args: --only, --runs, --intents,
// --recording, baselines); compare_intents.sh runs and diffs both engines.
// -kind lint writes small valid stories (lint.go) with zero, one or two
// load-time mistakes of story-format.md §9 and a near-miss upstream loads
// (lint_mistakes.go; mistake.txt names them); one fixture passes whenever
// the story loads, so compare.sh shows the load verdict. Compare the
// `validate` exit codes too: for d in DIR/*/; do a=$(ORACLE validate
// $d/app.yaml >/dev/null 2>&1; echo $?); b=$(kitsoki validate $d/app.yaml
// >/dev/null 2>&1; echo $?); [ $a = $b ] || echo "$d $a $b"; done.
// -kind mutate [-from CORPUSDIR] copies the real stories of the corpus
// (shared/corpus by default; a sibling an import names as ../X is copied
// beside the story) and writes new fixtures drawn from each story's real
// ones and its model (mutate.go, mutate_fixture.go): other start states,
// perturbed initial_world and host handlers, other declared intents with
// slots drawn from their declarations, repeated and advance_clock turns,
// few assertions so the runs go deep. origin.txt names the story copied.
// -kind storymut [-from CORPUSDIR] copies the real stories as mutate does,
// with their own fixtures, and edits the story's YAML nodes in one to four
// places (storymut.go, storymut_edit.go): guards negated, loosened,
// tightened or pointed at another key; set: values retyped or templated;
// increment and set swapped; targets moved (sibling, parent, child,
// @exit, a region leaf); on_enter/on_exit effects added, moved, swapped;
// say:, emit_intent/emit:, timeouts, templated host args and views;
// initial:, parallel regions, import overrides, terminal: and world
// declarations changed. Most edit sets still load here (the generator
// retries until one does); origin.txt names the story and the edits. An
// increment is added (or a set turned into one) only on a key whose
// default is no non-zero number unless -known: upstream replays such a
// key from 0 (conformance values-increment-default).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	err := run(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
}

// write writes n stories, story i from seed+i. known adds the forms
// known to differ between the engines (.inf, .nan, n's non-zero default).
// genOpts are write's choices beyond the seed: -known, -kind legacy,
// -emits, -trail, -extras, -more.
type genOpts struct {
	known, legacy, emits, trail, extras, more, gates, override, deep, jobs, redirects, wide, blocks, shapes, asserts, rare, vcs, bindings bool
	text                                                                                                                                  textOpts
}

func write(dir string, n int, seed uint64, o genOpts) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		g.withKnown, g.legacy, g.emits, g.trail, g.text = o.known, o.legacy, o.emits, o.trail, o.text
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		app, kid := g.story(fmt.Sprintf("gen-%d", seed+uint64(i)))
		fx := g.fixture()
		if o.extras {
			newExtraGen(seed+uint64(i), g.leaves, o.legacy).apply(app["states"].(m), kid, fx)
		}
		if o.more {
			newMoreGen(seed+uint64(i), g.leaves).apply(app, kid, fx)
		}
		if o.gates {
			newGateGen(seed+uint64(i)).apply(app, kid, fx)
		}
		if o.override {
			newOverrideGen(seed+uint64(i)).apply(app, fx)
		}
		if o.deep {
			newDeepGen(seed+uint64(i), o.trail, o.legacy).apply(app, fx)
		}
		if o.wide {
			newWideGen(seed+uint64(i), o.trail, o.legacy).apply(app, fx)
		}
		if o.jobs {
			newJobGen(seed+uint64(i), o.legacy).apply(app, kid, fx)
		}
		if o.redirects {
			newRedirectGen(seed + uint64(i)).apply(app)
		}
		if o.shapes {
			newShapeGen(seed+uint64(i), g.leaves).apply(app, kid)
		}
		if o.asserts {
			newAssertGen(seed+uint64(i), o.legacy).apply(app, kid, fx)
		}
		var more map[string]any
		if o.rare {
			more = newRareGen(seed+uint64(i), o.legacy).apply(app, kid, fx)
		}
		if o.blocks {
			bg := newBlockGen(seed + uint64(i))
			bg.apply(app)
			bg.apply(kid)
			bg.apply(fx)
		}
		files := map[string]any{"app.yaml": app, filepath.Join("flows", "f.yaml"): fx}
		if kid != nil {
			files[filepath.Join("kid", "app.yaml")] = kid
		}
		for name, v := range more {
			files[filepath.FromSlash(name)] = v
		}
		var fs []agentFile
		for _, name := range sortedKeys(files) {
			fs = append(fs, agentFile{name, files[name]})
		}
		if o.bindings {
			fs = newBindGen(seed + uint64(i)).apply(fs)
		}
		if err := writeText(d, fs, o.text); err != nil {
			return err
		}
	}
	return nil
}
