package fold

import "testing"

// TestHelperCalls pins which view-helper calls upstream's fold renames
// (conformance import-view-helpers): name("intent") and name('intent')
// with the intent declared by the child, nothing else.
func TestHelperCalls(t *testing.T) {
	rw := childRewriter(nil, "kid")
	rw.m.intents = map[string]bool{"go": true, "stop": true, "gk__ggo": true}
	for in, want := range map[string]string{
		`{{ available("go") }}`:                             `{{ available("kid__go") }}`,
		`{{ available('go') }}`:                             `{{ available('kid__go') }}`,
		`{{ blocked("stop") }}{{ blocked_reason("stop") }}`: `{{ blocked("kid__stop") }}{{ blocked_reason("kid__stop") }}`,
		`{{ intent_status("go")|upper }}`:                   `{{ intent_status("kid__go")|upper }}`,
		`{% if available("go") and blocked("stop") %}`:      `{% if available("kid__go") and blocked("kid__stop") %}`,
		`{{ available("gk__ggo") }}`:                        `{{ available("kid__gk__ggo") }}`,
		`{{ available( "go" ) }}`:                           `{{ available( "go" ) }}`,
		`{{ available("go" ) }}`:                            `{{ available("go" ) }}`,
		`{{ available ("go") }}`:                            `{{ available ("go") }}`,
		`{{ available(n) }}`:                                `{{ available(n) }}`,
		`{{ available("go') }}`:                             `{{ available("go') }}`,
		`{{ available("enter") }}`:                          `{{ available("enter") }}`,
		`{{ available("kid__go") }}`:                        `{{ available("kid__go") }}`,
		`{{ unavailable("go") }}`:                           `{{ unavailable("go") }}`,
		`{{ "go" }} go available`:                           `{{ "go" }} go available`,
		`available("go`:                                     `available("go`,
		`available("go"`:                                    `available("go"`,
	} {
		if got := rw.helperCalls(in); got != want {
			t.Errorf("helperCalls(%q) = %q, want %q", in, got, want)
		}
	}
}
