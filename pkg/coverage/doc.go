// Package coverage owns kitsoki test --cover: counting what flow fixtures
// reach ([Collector], an engine.Observer), the [Profile] that holds the
// counts per story file and line, and its formats (LCOV, Cobertura XML,
// versioned JSON with [Schema], an HTML report, the summary line and the
// unreached list). It must not run a story, parse story YAML or choose a
// file name on its own: pkg/flowtest drives the sessions, cmd/test.go
// picks the files, pkg/lsp reads [ParseJSON] profiles beside a story.
//
// Every part is counted where its author wrote it (engine.Reachable), so
// several states can add to one item. Profile paths are slash-separated,
// relative to [Options].Base when below it. Profiles of --shard runs merge
// ([Merge]) to the unsharded profile byte for byte. A profile also colours
// kitsoki graph's drawing ([GraphCoverage]) and gives -v's unreached list
// its kitsoki run hints ([Hints]); pkg/graph never imports this package.
package coverage
