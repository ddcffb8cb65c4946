package flowtest

import "kitsoki/pkg/diag"

// RuleInfo describes one fixture rule for kitsoki validate --list-rules,
// SARIF and docs/checks.md.
type RuleInfo struct {
	ID       string
	Severity diag.Severity
	Summary  string
	Example  string
}

// Rules lists every rule the fixture parser and linter report.
func Rules() []RuleInfo {
	return []RuleInfo{
		{ruleSyntax, diag.Error, "a flow fixture's YAML does not parse", "turns: [ {intent: go"},
		{ruleShape, diag.Error, "a fixture key holds the wrong kind of value", "turns: {intent: go}"},
		{ruleUnknownKey, diag.Warning, "a fixture key the runner does not know (the existing engine ignores it silently)", "expect_stat: done"},
		{ruleIgnoredKey, diag.Warning, "a fixture key the existing engine reads nowhere (kept for compatibility, no effect)", "by_call: {x: {delay: 1s}}"},
		{ruleValue, diag.Error, "a fixture value that cannot be used (a bad duration, an unknown mode)", "advance_clock: soon"},
		{ruleUnknownIntent, diag.Warning, "a turn fires an intent no state declares or handles", "- intent: {name: lauch}"},
		{ruleUnknownState, diag.Warning, "initial_state or expect_state names no state of the story", "initial_state: lobbby"},
		{ruleUnusedStub, diag.Warning, "a host_handlers stub for a handler the story never calls", "host_handlers: {host.nope: {data: {}}}"},
		{ruleNotChecked, diag.Warning, "an assertion the existing engine never evaluates where it stands", "turns: [{expect_terminal: true, intent: {name: go}}]"},
		{ruleMissingFile, diag.Error, "a cassette or recording the fixture names does not exist (it cannot run)", "host_cassette: missing.yaml"},
		{ruleBadRegex, diag.Warning, "an expect_view_matches that is not a Go regular expression (the turn always fails)", "expect_view_matches: \"(unclosed\""},
	}
}
