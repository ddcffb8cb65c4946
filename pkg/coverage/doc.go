// Package coverage owns kitsoki test --cover: counting what flow fixtures
// reach ([Collector], an engine.Observer), the [Profile] that holds the
// counts per story file and line, and its formats (LCOV, Cobertura XML,
// versioned JSON with [Schema], an HTML report, the summary line and the
// unreached list). It must not run a story, parse story YAML or choose a
// file name on its own: pkg/flowtest drives the sessions, cmd/test.go
// picks the files, pkg/lsp reads [ReadJSON] profiles beside a story.
//
// Every part is counted where its author wrote it (engine.Reachable): an
// imported child's parts in the child's files, a phase-generated state on
// its template's lines, so several states can add to one item. A profile's
// file paths are slash-separated and relative to its [Options].Base when
// below it, absolute otherwise. Profiles of --shard runs merge ([Merge])
// to the unsharded profile byte for byte: every shard lists every item of
// every story with fixtures, and counts add.
//
// A profile also colours kitsoki graph's drawing ([GraphCoverage], the
// graph.Coverage seam: items and drawn parts matched by file, line, column
// and kind), and -v's unreached list names, under each unreached move, the
// kitsoki run command whose intents reach the state it leaves from
// ([Hints], over graph.IntentPaths: guards ignored, and the list says so).
// pkg/graph never imports this package.
//
// Layout: profile.go (the model, summaries, Merge), collect.go (the
// observer), json.go (+ profile.schema.json), lcov.go, cobertura.go,
// html.go (+ html.tmpl), text.go (summary line, unreached list and its
// hints), beside.go (the profile the editor reads), graph.go (a profile
// as graph.Coverage), paths.go (path hints).
package coverage
