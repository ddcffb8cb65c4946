// Package story owns the kitsoki story format: the typed model of an app.yaml
// ([Story], [StoryFile]) with its include: files and imports: children, the
// loader that keeps every node's position, and the static checks ([Rule])
// kitsoki validate reports. It must not run a story, fold imports or expand
// phases (pkg/engine, pkg/fold, pkg/phases do).
//
// A load ([Load], [LoadBytes]) parses every file into the model, merges and
// indexes it, then runs every rule; a problem never stops it early, so every
// problem of every file is reported. Every diagnostic is created from a
// *[Rule] value (id, severity, summary, example), never from a string.
// [Blocking] tells run, test and eval whether a diagnostic makes the story
// unrunnable: errors of a LintOnly rule (something upstream's loader accepts,
// story-format.md §10) are printed as warnings there and the run goes ahead.
//
// A story upstream accepts loads with no error, except for the stricter
// checks the issues ask for (missing prompt, schema and evidence files,
// dangling on_error targets, undeclared effect agent: aliases);
// testdata/upstream holds one such story per corner of the format. Imported
// children load beside the parent ([Import].Child), unfolded, and are checked
// in their importers' context (lifted.go), as upstream checks them only after
// folding. Resolved ${VAR} values are secrets: they live only in
// [AgentPlugin].Env/Headers and [Provider].Env and never in a diagnostic.
//
// Layout (actionlint style): model.go (types), load.go (entry points, path
// index), yamlnode.go (the reporter, and the fileParser: a file's YAML read
// through internal/yamlnode's Walker, which owns duplicate and unknown keys
// with their did-you-mean, type errors, recursive aliases and a node budget
// that grows with the file), yamlsplit.go (a large
// file's top-level states: parsed in batches, so its whole YAML tree never
// exists at once), withpos.go (an effect's with: positions as a table),
// parse_*.go (nodes to model), include.go, imports.go (cycle detection), override.go (an
// import's overrides: kept as nodes, parsed for the fold on demand), plugins.go
// (agent_plugins:/providers:, ${VAR}), resolve.go ([ResolvePath], the one
// target resolver, used by the engine too), scalarpos.go (an expression's
// line:col inside a scalar mapped back to the file, for every YAML scalar
// style), cache.go ([Options].Cache: parsed files shared across loads) and
// parsecache.go (what they share by content: trees, compile results),
// rules.go (the rule registry), check.go (the passes), one rule_<name>.go
// per check; confine.go ([ProjectRoot], [Options].Root and Trees): every
// file a story names is read through its project root (internal/safefile's
// Root), and one that leaves it is refused unread at the key naming it
// (rule outside-root). The passes name a place in a message (an effect's
// `state "a" on_enter[0]`, a view element's `view[1] (prose)`) only when
// they report one, and skip compiling the sources expr recognises as plain.
package story
