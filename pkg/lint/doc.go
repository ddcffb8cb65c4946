// Package lint owns the static checks of the story format: the rule
// registry ([Rules], [LookupRule], [Blocking]), the passes that run every
// rule over a loaded story, and each rule's check. It must not parse YAML,
// load files into the model or resolve imports (pkg/story does), nor run,
// fold or expand a story itself (pkg/engine, pkg/fold, pkg/phases): the
// states phases: generates are checked on a copy pkg/phases expands
// (rule_phases_expanded.go). A Starlark script's sidecar is read through
// pkg/host/scriptiface, the parser host.starlark.run uses (rule_starlark.go).
//
// The pipeline is parse → model → check, as starlark-go's syntax →
// resolve → eval: [story.Load] parses every file into the model and reports
// parse and model errors; [Check] then runs every pass over the story and
// over each of its imported children ([story.Story.Children]), the
// children in their importers' context (lifted.go), as upstream checks a
// child only after folding it. [Load], [LoadSource] and [LoadBytes] are the
// one place a command gets a story with every diagnostic, sorted: validate,
// pkg/compose (run, test, eval, mcp serve, watch) and plugins go through
// them. A rule that panics is reported as rule internal, never as a crash.
//
// Every diagnostic is created from a *[Rule] value (id, severity, summary,
// example, LintOnly), never from a string. The loader's own rules
// (yaml-syntax, type, imports, view, ...) are story's exported Rule values;
// the registry lists them with this package's. [Blocking] tells run, test
// and eval whether a diagnostic makes the story unrunnable: errors of a
// LintOnly rule (something upstream's loader accepts) are printed as
// warnings there and the run goes ahead. The findings upstream's validate
// also passes are warnings already ([LoaderAccepted]): validate fails on
// them only with --strict.
//
// Layout: rules.go (the registry: story's rules and those of passes),
// check.go (passes: the order the checks run, the one registration of a
// rule; the effect and transition walks), one rule_<name>.go per check
// with its *Rule value, lifted.go (names a child may use from its
// importers, and <alias>__<name> names lifted from children),
// world_reads.go, world_files.go, world_starlark.go and world_writes.go
// (the world keys a story reads and gives a value, for rule world-key),
// intent_lookup.go (the one intent lookup), agent_refs.go (prompt and
// schema references of agent invokes), compile_cache.go (guards and
// templates compiled once per check),
// scalarpos.go (an expression's line:col inside a scalar mapped back to
// the file, for every YAML scalar style), lint.go (the entry points). The
// tests run on pkg/story's testdata (broken/<rule>/ with its
// expect.golden, clean, corpus, upstream), which other packages' tests and
// docs/checks.md name too.
//
// Adding a rule: one rule_<name>.go holding its *Rule value (id, severity,
// summary, example) and its check function, and one line in passes
// (check.go); a broken story under pkg/story/testdata/broken/<id>/ (then go test ./pkg/lint -run
// BrokenGolden -update, and go test ./pkg/validate -run ChecksDoc -update).
// A test fails on a report call whose rule is not registered.
package lint
