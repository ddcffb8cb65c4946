package flowtest

import (
	"slices"

	"kitsoki/pkg/diag"
)

// The rules of fixture parsing (errf/warnf) and linting (Lint). Every
// fixture diagnostic takes its id from one of these values. All are
// LintOnly: a story runs whatever its fixtures say.
var (
	ruleSyntax = &diag.Rule{ID: "flow-syntax", Severity: diag.Error, LintOnly: true,
		Summary: "a flow fixture's YAML does not parse", Example: "turns: [ {intent: go"}
	ruleShape = &diag.Rule{ID: "flow-shape", Severity: diag.Error, LintOnly: true,
		Summary: "a fixture key holds the wrong kind of value", Example: "turns: {intent: go}"}
	ruleUnknownKey = &diag.Rule{ID: "flow-unknown-key", Severity: diag.Warning, LintOnly: true,
		Summary: "a fixture key the runner does not know (the existing engine ignores it silently)", Example: "expect_stat: done"}
	ruleIgnoredKey = &diag.Rule{ID: "flow-ignored-key", Severity: diag.Warning, LintOnly: true,
		Summary: "a fixture key the existing engine reads nowhere (kept for compatibility, no effect)", Example: "by_call: {x: {delay: 1s}}"}
	ruleValue = &diag.Rule{ID: "flow-value", Severity: diag.Error, LintOnly: true,
		Summary: "a fixture value that cannot be used (a bad duration, an unknown mode)", Example: "advance_clock: soon"}
	ruleNaNDuration = &diag.Rule{ID: "flow-nan-duration", Severity: diag.Warning, LintOnly: true,
		Summary: "an advance_clock or stub delay of NaNd (a day count that reads as NaN): the existing engine accepts it and converts NaN to a duration as the CPU does (the most negative duration on amd64, 0 on arm64: no advance, no delay on both); kitsoki reads it as 0 on every CPU", Example: "advance_clock: NaNd"}
	ruleUnknownIntent = &diag.Rule{ID: "flow-unknown-intent", Severity: diag.Warning, LintOnly: true,
		Summary: "a turn fires an intent no state declares or handles", Example: "- intent: {name: lauch}"}
	ruleUnknownState = &diag.Rule{ID: "flow-unknown-state", Severity: diag.Warning, LintOnly: true,
		Summary: "initial_state or expect_state names no state of the story, or a legacy-path fixture has no initial_state", Example: "initial_state: lobbby"}
	ruleUnusedStub = &diag.Rule{ID: "flow-unused-stub", Severity: diag.Warning, LintOnly: true,
		Summary: "a host_handlers stub for a handler the story never calls", Example: "host_handlers: {host.nope: {data: {}}}"}
	ruleNotChecked = &diag.Rule{ID: "flow-not-checked", Severity: diag.Warning, LintOnly: true,
		Summary: "an assertion the existing engine never evaluates where it stands", Example: "turns: [{expect_terminal: true, intent: {name: go}}]"}
	ruleMissingFile = &diag.Rule{ID: "flow-missing-file", Severity: diag.Error, LintOnly: true,
		Summary: "a cassette or recording the fixture names does not exist: an error where the fixture opens it (kitsoki fails the fixture; the existing engine ends the whole test run), a warning where its path never does (a cassette on the legacy path, a recording on the orchestrator path with no turn that input: alone drives)", Example: "host_cassette: missing.yaml"}
	ruleOutsideRoot = &diag.Rule{ID: "flow-outside-root", Severity: diag.Error, LintOnly: true,
		Summary: "a cassette, recording or expect_files path the fixture names lies outside the project root (kitsoki test refuses it unread)", Example: "host_cassette: /home/me/.ssh/id_rsa"}
	ruleErrorCode = &diag.Rule{ID: "flow-error-code", Severity: diag.Warning, LintOnly: true,
		Summary: "an expect_error no run satisfies: a code the engine never reports (such as the llm-guide's names for MISSING_SLOTS and INVALID_SLOT_VALUE), no code at all (\"\" is compared too), another code than INTENT_NOT_ALLOWED_IN_STATE for an intent the story declares nowhere (no \"*\" arm), INTENT_NOT_ALLOWED_IN_STATE for an intent the plain state the fixture certainly rests in (or an ancestor) takes (it is accepted, or refused with another code), or one beside expect_no_errors: true (the expected rejection still counts); any code for an intent certainly accepted where the fixture certainly rests (a plain state, every required slot sent, no values: slot, an arm certainly taken), or another code than INTENT_NOT_ALLOWED_IN_STATE for one it does not take there; MISSING_SLOTS on the orchestrator path (a clarification there); another code than INTENT_NOT_ALLOWED_IN_STATE where the fixture starts in no state; allowed_contains naming an intent no state takes, or beside another code than INTENT_NOT_ALLOWED_IN_STATE on the legacy path (which lists none then)", Example: "expect_error: {code: SLOT_MISSING_REQUIRED}"}
	ruleWorldType = &diag.Rule{ID: "flow-world-type", Severity: diag.Warning, LintOnly: true,
		Summary: "an initial_world or world_override value the key's declared type does not hold: a string or null on an int, float or bool key, a scalar or list on an object key, a scalar or mapping on a list key; neither engine converts it, so a guard reading the key as its type fails the turn (string > int, <nil> > int, a field of a string) or compares false", Example: "initial_world: {n: \"3\"}   # world: {n: {type: int}}"}
	ruleRejected = &diag.Rule{ID: "flow-rejected", Severity: diag.Warning, LintOnly: true,
		Summary: "a turn both engines certainly reject: its intent is declared nowhere in a story with no \"*\" arm, or declared but no state takes it, the state the fixture certainly rests in does not take it (the state the previous turn's expect_state names, a legacy fixture's initial_state, or where the arm an intent certainly takes leads from there: its first unguarded one, or the first whose when: is true on what the fixture certainly has, its slots and world; a state entered through a call whose on_error may redirect is followed as each state it may rest in, and after a turn whose arm is not certain each state it may end in, every arm, literal emit_intent and on_error followed; a turn expecting INTENT_NOT_ALLOWED_IN_STATE for an intent nothing there takes, or GUARD_FAILED where every arm it reaches is certainly false, moves nothing, on either path, so the next turn fires where it rested; judged when none takes the intent), every arm the intent reaches has a when: that is false on what the fixture certainly has (GUARD_FAILED), a legacy-path turn leaves out a required slot (MISSING_SLOTS) or a slot value is not one of its values: (INVALID_SLOT_VALUE), or an imported child's bare intent spelling is fired in that child's parallel state (GUARD_FAILED: write the prefixed name), or, where the previous turn's expect_state rests the fixture in a parallel state (or the configuration is followed from a quiet entry, a root#leaf|leaf start, each region's certain moves and the parallel state's own re-entry, which lands each region on its initial: leaf and runs no on_enter), no leaf, region or ancestor of it takes the intent, or every arm the leaves reach is false (GUARD_FAILED), or any intent fires where the fixture starts in no state (an initial_state naming no state nor a dotted prefix of one, none on the legacy path or under root: \"\"), every intent before it expected rejected, or any intent fires after the fixture certainly left the root story through @exit:NAME (an arm it certainly takes, a turn whose every arm, emit and on_error can only end there, an expect_state: __exit__NAME it passes, a timeout an advance fires: nothing takes an intent at __exit__NAME); the fixture fails unless the turn expects the rejection", Example: "- intent: {name: pick, slots: {color: green}}   # values: [red, blue]"}
	ruleWrongState = &diag.Rule{ID: "flow-wrong-state", Severity: diag.Warning, LintOnly: true,
		Summary: "an expect_state the turn certainly does not meet: from the state the fixture certainly rests in (kept across a turn expecting INTENT_NOT_ALLOWED_IN_STATE for an intent nothing there takes, or GUARD_FAILED where every arm is certainly false: rejected, it moves nothing), the turn's intent takes a first arm without when: (or whose when: is certainly true) that moves it (setting, incrementing or saying only, to a literal target, or through calls whose on_error may redirect it: then to none of the states it may rest in) to another state; or, on the orchestrator path, the turn leaves out a slot every declaration of its intent requires (a clarification: the machine stays where it certainly rests) and expect_state names another state; or it lists a parallel state's leaves out of the order the engines print them (sorted by path); a turn's advance_clock runs after its intent and, where neither a timeout: of the state (or an ancestor) nor a background job that moves the machine can act, leaves it there (a clock-only turn: where it rests), while an advance at least as long as the resting state's own timeout.after fires it to its literal target (where the turn before it certainly ended normally); or, where the arm taken is not certain, the expect_state names none of the states the turn can end in (every arm of its intent there, every literal emit_intent on the way fired or not, every call's on_error followed, a parallel state entered from outside landing on each region's initial: leaf, printed root#a|b); or, where the configuration of a parallel state is followed (a quiet entry, a root#leaf|leaf start, each region's certain moves, its own re-entry), the expect_state names another path than root#leaf|leaf", Example: "- intent: {name: go}     # at lobby, go: [{target: hall}]\n  expect_state: vault"}
	ruleSlotType = &diag.Rule{ID: "flow-slot-type", Severity: diag.Warning, LintOnly: true,
		Summary: "a turn's slot value is a string where the intent declares the slot int, float or bool (and its values:, if any, do not list that string): neither engine converts or refuses it, so a guard reading the slot as its type fails the turn (string > int) or compares false", Example: "- intent: {name: count, slots: {k: \"5\"}}   # slots: {k: {type: int}}"}
	ruleSlotUint = &diag.Rule{ID: "flow-slot-uint", Severity: diag.Warning, LintOnly: true,
		Summary: "a turn's slot value is a YAML whole number that is not negative, and a call of the turn's own chain reads it whole (\"{{ slots.n }}\") as a host.run timeout or args element or a host.starlark.run input, under host_bindings: it reaches the real handler as the existing engine's uint64, which the handler refuses, so the call fails and binds nothing (flow-world-known or flow-wrong-state follow where an assertion expects otherwise)", Example: "host_bindings: {host.run: host.run}\nturns: [{intent: {name: run, slots: {n: 3}}}]   # run: host.run with args: [x, \"{{ slots.n }}\"]"}
	ruleNotTerminal = &diag.Rule{ID: "flow-not-terminal", Severity: diag.Warning, LintOnly: true,
		Summary: "expect_terminal: true on a fixture that certainly ends in a state declared without terminal: true (its last turn's expect_state, or where it certainly rests after the last turn): the check fails on both engines", Example: "turns: [{intent: {name: quit}, expect_state: ended}]\nexpect_terminal: true   # ended: {view: Bye.}"}
	ruleBadRegex = &diag.Rule{ID: "flow-bad-regex", Severity: diag.Warning, LintOnly: true,
		Summary: "an expect_view_matches that is not a Go regular expression (the turn always fails)", Example: "expect_view_matches: \"(unclosed\""}
	ruleGuardError = &diag.Rule{ID: "flow-guard-error", Severity: diag.Warning, LintOnly: true,
		Summary: "a turn whose intent, fired where the fixture certainly rests, reaches an arm whose when: fails to evaluate on the world and slots the fixture certainly has (a string compared with a number, a field of a string, an index past a list's end), every arm before it certainly false: the turn fails on both engines (the existing engine aborts the whole test flows run)", Example: "- intent: {name: go}   # initial_world: {n: \"3\"}; on: {go: [{when: \"world.n > 2\", target: done}]}"}
	ruleWorldNever = &diag.Rule{ID: "flow-world-never", Severity: diag.Warning, LintOnly: true,
		Summary: "an expect_world or expect_world_final value the key never holds on any path: the story sets it only to literal values (set: anywhere, an import's world_in and exit set: included), the fixture gives it only literal ones (initial_world, world_override), and none of them, nor its start value, equals the expected one: the assertion fails on both engines", Example: "expect_world: {outcome: won}   # the story only ever sets outcome: lost"}
	ruleWorldKnown = &diag.Rule{ID: "flow-world-known", Severity: diag.Warning, LintOnly: true,
		Summary: "an expect_world value the key certainly does not hold after the turn: on the path the fixture certainly takes (the arms its guards certainly choose, the literal set:s they run, the binds of the answers its stubs certainly give, or a key nothing writes keeping its start value), the key holds another value: the assertion fails on both engines", Example: "turns: [{intent: {name: light}, expect_world: {lamp: false}}]   # light sets lamp: true"}
	ruleInboxKnown = &diag.Rule{ID: "flow-inbox-known", Severity: diag.Warning, LintOnly: true,
		Summary: "an expect_inbox count or severity list the inbox certainly does not hold after the turn: every turn before it and this one is followed, each background job submitted posting an info notice and each landing on an advance_clock a success (or, for a stub's error, an error) one, in a story that never calls host.inbox.add; or a severities entry no notification has (they are info, success, warn, error, action_required): the assertion fails on both engines", Example: "- intent: {name: start}   # start submits one job and the turn does not advance the clock\n  expect_inbox: {unread: 2}"}
	rulePartialAdvance = &diag.Rule{ID: "flow-partial-advance", Severity: diag.Warning, LintOnly: true,
		Summary: "an advance_clock that ends with a background job still to land, whose stub's delay reaches past it (submitted before the advance, or by a landing in it): the existing engine waits for it for 5 s of wall time, then aborts the whole test run (advance_clock: scheduler WaitIdle: context deadline exceeded) and writes no report; kitsoki leaves the job running for a later advance", Example: "host_handlers: {host.job: {delay: 10s}}\nturns: [{intent: {name: start}, advance_clock: 5s}]"}
	ruleCallNever = &diag.Rule{ID: "flow-call-never", Severity: diag.Warning, LintOnly: true,
		Summary: "an expect_host_calls or expect_events entry nothing the fixture can run matches: expect_host_calls (without times: 0) on the legacy path, which dispatches no call, or naming a handler no invoke of the story calls, or args no call of it can send (each call's with: and id: are literals that never carry a listed key, or carry another value: values compare as JSON, so -0 differs from 0); an expect_events world.update whose set: gives a key a value the story and the fixture never write (as flow-world-never judges an expect_world): the assertion fails on both engines", Example: "expect_host_calls: [{handler: host.ok, args: {x: 0}}]   # the story's only call of host.ok sends with: {x: -0.0}"}
	ruleJobNever = &diag.Rule{ID: "flow-job-never", Severity: diag.Warning, LintOnly: true,
		Summary: "an expect_jobs entry on the orchestrator path that no run satisfies: it has no namespace, a status that is not done, failed, cancelled or awaiting_input, or a namespace no background call of the story invokes (its jobs are named by the invoke that submits them); or, on a turn every step of which is certain, more entries than jobs can end in it (a job whose stub has no delay: ends in the turn that submits it, and one whose with: renders a NaN or an infinity is never seen): the turn fails on both engines", Example: "expect_jobs: [{namespace: host.nope, status: done}]   # the story's only background call is host.echo"}
	ruleCassetteAlias = &diag.Rule{ID: "flow-cassette-alias-episode", Severity: diag.Warning, LintOnly: true,
		Summary: "a host_cassette episode whose match.handler names an agent alias (agent.<name>): a fixture's agent calls dispatch as host.agent.<verb>, so the episode answers none of them on either engine (a call no host.agent.<verb> episode answers fails with no handler, and strict_cassette_coverage lists the episode as never played); kitsoki run --cassette replays such episodes", Example: "episodes: [{id: pick, match: {handler: agent.claude}, agent: {verb: decide, response: '{}'}}]"}
	ruleCassetteUnplayed = &diag.Rule{ID: "flow-cassette-unplayed", Severity: diag.Warning, LintOnly: true,
		Summary: "with strict_cassette_coverage: true, a host_cassette episode no call of the story can play (a match.handler naming an agent alias, or no handler the story calls nor a prefix of one; a match.call naming no invoke's id): the fixture fails at its end on both engines with unexpected remaining episodes", Example: "episodes: [{id: x, match: {handler: host.nothing}, response: {data: {}}}]   # with strict_cassette_coverage: true"}
	ruleCassetteDelay = &diag.Rule{ID: "flow-cassette-delay", Severity: diag.Warning, LintOnly: true,
		Summary: "a host_cassette episode's delay: that is no duration (a bare number such as 2 or 5000000000, text such as soon or 1x, \"\", a negative -1s): both engines drop it, so the episode answers at once and a background job it answers lands on the next advance_clock", Example: "episodes: [{id: slow, match: {handler: host.job}, delay: 2, response: {data: {}}}]   # write 2s"}
	ruleCassetteStatus = &diag.Rule{ID: "flow-cassette-status", Severity: diag.Warning, LintOnly: true,
		Summary: "a starlark_http_cassette response's status: written as a quoted number or a float: both engines read it truncated toward zero (\"199.99\" is 199, 1e3 is 1000)", Example: "exchanges: [{match: {method: GET, url: \"https://api.test/x\"}, response: {status: \"199.99\"}}]   # read as 199"}
	ruleIntentsRefused = &diag.Rule{ID: "flow-intents-refused", Severity: diag.Warning, LintOnly: true,
		Summary: "an intents file (intents/*.yaml) that kitsoki test intents refuses: its YAML does not parse, a document is not a mapping, a key holds the wrong kind of value, a merge key is refused as upstream's decoder refuses it, or its fixtures route too many inputs", Example: "fixtures: {id: greet}   # a list of fixtures is expected"}
)

// rules lists every fixture rule in documentation order.
var rules = []*diag.Rule{
	ruleSyntax, ruleShape, ruleUnknownKey, ruleIgnoredKey, ruleValue, ruleNaNDuration, ruleUnknownIntent,
	ruleUnknownState, ruleUnusedStub, ruleNotChecked, ruleMissingFile, ruleOutsideRoot, ruleBadRegex,
	ruleErrorCode, ruleWorldType, ruleRejected, ruleWrongState, ruleSlotType, ruleSlotUint, ruleNotTerminal,
	ruleGuardError, ruleWorldNever, ruleWorldKnown, ruleInboxKnown, rulePartialAdvance, ruleCallNever, ruleJobNever, ruleCassetteAlias,
	ruleCassetteUnplayed, ruleCassetteDelay, ruleCassetteStatus, ruleIntentsRefused,
}

// Rules lists (copies of) every rule the fixture parser and linter report,
// for kitsoki validate --list-rules, SARIF and docs/checks.md.
func Rules() []diag.Rule { return diag.Values(rules) }

// verdictRules are the fixture rules whose findings say the fixture fails
// on both engines; the others describe a key, a value or a file, or say
// what a key does not do.
var verdictRules = []*diag.Rule{
	ruleRejected, ruleWrongState, ruleNotTerminal, ruleBadRegex, ruleGuardError, ruleWorldNever,
	ruleWorldKnown, ruleInboxKnown, ruleErrorCode, rulePartialAdvance, ruleCallNever, ruleJobNever, ruleCassetteUnplayed,
}

// PredictsFailure reports whether a finding of the rule id says the
// fixture it is in fails on both engines (a verdict, which a fixture the
// existing engine passes must never get).
func PredictsFailure(id string) bool {
	return slices.ContainsFunc(verdictRules, func(r *diag.Rule) bool { return r.ID == id })
}
