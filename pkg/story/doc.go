// Package story owns the kitsoki story format: the typed model of an app.yaml
// ([Story], [StoryFile]) with its include: files and imports: children, the
// loader that keeps every node's position, and the static checks ([Rule])
// kitsoki validate reports. It must not run a story, fold imports or expand
// phases (pkg/engine, pkg/fold, pkg/phases do).
//
// In full, it owns the kitsoki story format: the typed model of an
// app.yaml (with its include: files and imports: children), the loader that
// builds it from YAML nodes so every node keeps its file, line and column,
// ${VAR} interpolation for agent_plugins/providers, target resolution, and
// every load-time check, each reported as a positioned diag.Diagnostic.
//
// Layout (actionlint style): model.go holds the types; load.go the entry
// points (Load, LoadBytes) and the path index; yamlnode.go the node walker
// (duplicate keys, type errors, recursive aliases, a node budget that
// grows with the file, a string cache); yamlsplit.go parses a large file's
// top-level states: block in batches of states, when the cut is provably
// the whole-file parse (else the whole file is parsed), so a big story's
// YAML tree never exists at once; withpos.go keeps an effect's with:
// positions as a table, so the model holds no YAML nodes;
// parse_*.go turn YAML nodes into the model and report syntax, type and
// unknown-key problems with "did you mean" suggestions (suggest.go);
// include.go merges include: files; imports.go loads imports: children with
// cycle detection; plugins.go validates agent_plugins:/providers: and
// substitutes ${VAR}; resolve.go holds ResolvePath, the one target
// resolver of kitsoki (upstream's semantics, story-runtime.md §1.6/§2.4:
// the engine calls it too); scalarpos.go maps an expression library's
// line:col inside a scalar back to the file, through every YAML scalar
// style, so a diagnostic names the offending token; cache.go shares parsed
// files between the loads of one process (Options.Cache), and parsecache.go
// what they share by content: parsed trees, compile results and the
// template and schema sources known to compile clean. rules.go is the
// rule registry: every diagnostic is created from a *Rule value (id,
// severity, summary, example), never from a string; check.go runs the
// passes; each check is one rule_<name>.go file. A story loads in three
// steps: parse every file into the model, merge and index it, run every
// rule. Problems never stop the load early: every problem of every file is
// reported.
//
// Runnable or not: Blocking(d) (and Unrunnable(ds)) tells run, test and
// eval whether a diagnostic makes the story unrunnable. A rule marked
// LintOnly checks something upstream's loader accepts (story-format.md
// §10: prompt and schema files, $refs, on_error targets, effect agent:
// aliases; views, say and prompt templates, which upstream compiles only
// when rendering; unreachable states and the other warnings): its errors
// stay errors for validate, but runners print them as warnings and go
// ahead, as the existing engine would load the story. Errors of every
// other rule (and of an id this package does not know) block.
//
// Upstream compatibility: a story the existing engine accepts loads with no
// error, except where the issue asks for stricter checks (missing prompt,
// schema and evidence files, dangling on_error targets, undeclared effect
// agent: aliases). Constructs kitsoki run does not execute (imports,
// phases, parallel states, background jobs, views) are parsed and checked
// structurally; imported children are loaded beside the parent (Import.Child)
// and are not folded into it. Because upstream checks a child only after
// folding it, a child is checked in its importers' context (lifted.go): its
// references may resolve against their global intents, personas, world
// keys, hosts, agent_plugins and host_bindings, and problems in the blocks
// the fold drops (agent_plugins, providers, decider, routing, off_path) are
// warnings. testdata/upstream holds one story per corner of the format that
// upstream accepts; each must load with no error.
//
// The package must not execute a story, dispatch agent calls or touch the
// network: it only reads the story directory. It imports neither the engine
// nor the agent transports. Resolved ${VAR} values are secrets: they live in
// AgentPlugin.Env/Headers and Provider.Env only and never appear in a
// diagnostic message.
package story
