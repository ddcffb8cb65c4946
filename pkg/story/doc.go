// Package story owns the kitsoki story format: the typed model of an app.yaml
// ([Story], [StoryFile]) with its include: files and imports: children, the
// loader that keeps every node's position, and target resolution. It must
// not run the static checks (pkg/lint does), run a story, fold imports or
// expand phases (pkg/engine, pkg/fold, pkg/phases do).
//
// A load ([Load], [LoadSource]) reports every parse and model
// error of every file without stopping early; pkg/lint's Load adds the
// checks. Every diagnostic comes from a *[Rule] (rules.go). A story the
// existing engine accepts loads with no error, except for the stricter
// checks the issues ask for; testdata/upstream holds one such story per
// corner of the format. Imported children load beside the parent
// ([Import].Child), unfolded. Resolved ${VAR} values are secrets: they live
// only in [AgentPlugin].Env/Headers and [Provider].Env, never in a
// diagnostic. Every file a story names is read through its project root
// (confine.go); one that leaves it is refused unread (rule outside-root).
package story
