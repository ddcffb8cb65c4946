// Package story owns the kitsoki story format: the typed model of an
// app.yaml (with its include: files and imports: children), the loader that
// builds it from YAML nodes so every node keeps its file, line and column,
// ${VAR} interpolation for agent_plugins/providers, target resolution, and
// every load-time check, each reported as a positioned diag.Diagnostic.
//
// Layout (actionlint style): model.go holds the types; load.go the entry
// points (Load, LoadBytes); parse_*.go turn YAML nodes into the model and
// report syntax, type and unknown-key problems; include.go and imports.go
// merge and load other files; resolve.go resolves state targets; each check
// lives in one rule_<name>.go file and is listed in rules.go with its stable
// rule id.
//
// The package must not execute a story, dispatch agent calls or touch the
// network: it only reads the story directory. It imports neither the engine
// nor the agent transports. Resolved ${VAR} values are secrets: they live in
// AgentPlugin.Env/Headers and Provider.Env only and never appear in a
// diagnostic message.
package story
