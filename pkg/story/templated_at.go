package story

import "strings"

// TextField names a field whose text the existing engine may read as a
// template rather than as written, for TemplatedAt.
type TextField uint8

const (
	// FieldInitial is a state's initial:, rendered when it holds {{ or {%.
	FieldInitial TextField = iota
	// FieldTimeoutAfter is a timeout's after:, whose duration check
	// upstream skips only when it holds {{: a {% %} or {# #} one is
	// parsed as written and refused (testdata/broken/state).
	FieldTimeoutAfter
	// FieldTarget is a transition, timeout or on_complete target, or an
	// import's exits.to: rendered only when it holds {{, so a {% %} tag
	// alone is looked up as a state path (story-runtime.md §1.6).
	FieldTarget
	// FieldPersona is an agent invoke's with.agent, checked against
	// agents: unless it holds {{ (a {% %} one is refused as undeclared).
	FieldPersona
	// FieldRoot is the story's root:, always looked up in states.
	FieldRoot
	// FieldProvider is an agent's provider: or an agent invoke's
	// with.provider, checked against providers: unless it holds {{ (a lone
	// "{{go" included; a {% %} one is refused as undefined).
	FieldProvider
	// FieldAgentRef is meta_modes.*.agent, off_path.agent or
	// agent_off_ramp.agent: always looked up in agents, {{ included.
	FieldAgentRef
	// FieldAgentAlias is an agent invoke's effect-level agent: (an
	// agent_plugins alias), rendered at dispatch only when it holds {{: a
	// {% %} one names the alias as written.
	FieldAgentAlias
	// FieldCacheMaxAge is routing.cache_max_age, always parsed as a
	// duration: a template of any kind is refused.
	FieldCacheMaxAge
)

// TemplatedAt reports whether upstream treats s as a template in field f,
// so a load-time check of its literal value (a duration, a state name)
// does not apply. Each field has its own rule upstream; this is the one
// place they are written down.
func TemplatedAt(f TextField, s string) bool {
	switch f {
	case FieldTimeoutAfter, FieldTarget, FieldPersona, FieldProvider, FieldAgentAlias:
		return strings.Contains(s, "{{")
	case FieldCacheMaxAge, FieldAgentRef, FieldRoot:
		return false
	default:
		return IsTemplated(s)
	}
}
