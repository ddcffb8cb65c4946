// Package story owns the kitsoki story format: the typed model of an app.yaml
// ([Story], [StoryFile]) with its include: files and imports: children, the
// loader that keeps every node's position, and target resolution. It must
// not run the static checks (pkg/lint does), run a story, fold imports or
// expand phases (pkg/engine, pkg/fold, pkg/phases do).
//
// A load ([Load], [LoadSource], [LoadBytes]) parses every file into the
// model, merges and indexes it, and reports parse and model errors (YAML
// syntax, types, unknown and duplicate keys, include:, imports:, files
// outside the project root); a problem never stops it early, so every
// problem of every file is reported. It does not run the rules: pkg/lint's
// Load is story's load followed by its checks, the one way commands load a
// story. Every diagnostic is created from a *[Rule] value (id, severity,
// summary, example), never from a string; rules.go holds the rules a load
// reports under (exported: pkg/lint's registry lists them and its checks
// report some of them too). lint_surface.go is what the checks read of a
// loaded story beyond its exported fields (where a child sits in its load,
// the path index). fixture_world.go reads the one thing a check needs of
// the story's flow fixtures: the world keys they seed
// ([Story.FixtureWorldKeys]); pkg/flowtest owns the fixtures themselves.
//
// A story upstream accepts loads and checks with no error, except for the stricter
// checks the issues ask for (missing prompt, schema and evidence files,
// dangling on_error targets, undeclared effect agent: aliases);
// testdata/upstream holds one such story per corner of the format. Imported
// children load beside the parent ([Import].Child), unfolded; pkg/lint
// checks them in their importers' context ([Story.Importer],
// [Story.Children]), as upstream checks them only after folding. Resolved
// ${VAR} values are secrets: they live only in [AgentPlugin].Env/Headers
// and [Provider].Env and never in a diagnostic.
//
// Layout (actionlint style): model.go (types), load.go (entry points, path
// index), yamlnode.go (the fileParser: a file's YAML read
// through internal/yamlnode's Walker, which owns duplicate and unknown keys
// with their did-you-mean, type errors, recursive aliases and a node budget
// that grows with the file; each block is read through a yamlnode.Fields
// table of its keys), yamlsplit.go (a large
// file's top-level states: parsed in batches, so its whole YAML tree never
// exists at once), withpos.go (an effect's with: positions as a table),
// parse_*.go (nodes to model), include.go, imports.go (cycle detection), override.go (an
// import's overrides: kept as nodes, parsed for the fold on demand), plugins.go
// (agent_plugins:/providers:, ${VAR}), resolve.go ([ResolvePath], the one
// target resolver, used by the engine too), read.go (decoding a story's
// YAML files; confine.go reads them), rules.go (the load's rules),
// view_choices.go (a view's choice elements, one per view),
// effect_walk.go ([EffectWalk]: the one walk over every effect of the
// states, phases and proposals, nested lists included, with each effect's
// [EffectPlace]), agent_effects.go,
// lint_surface.go; confine.go ([ProjectRoot], [Options].Root and Trees): every
// file a story names is read through its project root (internal/safefile's
// Root), and one that leaves it is refused unread at the key naming it
// (rule outside-root); [Ancestors], [Above] and [GitRoot] are the one walk up
// from a directory, and [ManifestPath] the one "a directory means its
// app.yaml", for every package that needs them.
package story
