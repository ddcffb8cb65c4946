package expr

import (
	"strings"
	"testing"
)

// simpleSeeds are templates on both sides of SimplePongo's line.
var simpleSeeds = []string{
	"Processing {{ world.ticket_id }}.\n",
	"{{ world.workdir|default:\"(none)\" }}",
	"{{ world.verdict.stale_docs|length|default:\"0\" }}",
	"{{world.a}} and {{ slots.b_2 }}} }} {",
	"{{ a|upper }} {{ b|nosuchfilter }}",
	"{{ world.in }}", "{{ true }}", "{{ not }}", "{{ a.0 }}", "{{ a[0] }}",
	"{{ a|default:\"x\\\"y\" }}", "{{ a|default:'x' }}", "{{ a|default: \"x\" }}",
	"{{ a|default:\"{{\" }}", "{{ a|default:\"x}}\" }}", "{{ a | upper }}",
	"{{\ta }}", "{{ a\n}}", "{{ a", "{{ a }", "{{ }}", "{{ _ }}", "{{ a.b. }}",
	"{{- a }}", "{{ a -}}", "{% if a %}x{% endif %}", "{# c #}{{ a }}",
	"{{ a ?? \"x\" }}", "{{ a|default:\"\" }}", "{{ a|default }}", "{{ a|default: }}",
	"{{ a|length:\"x\" }}", "{{ A9.b_c.D }}", "{{ 9a }}", "{{ é }}", "\xff{{ a }}\xfe",
}

// TestSimplePongoCompiles: every template SimplePongo accepts compiles.
func TestSimplePongoCompiles(t *testing.T) {
	accepted := 0
	for _, src := range simpleSeeds {
		l := NewPongoLoader()
		_, cerr := l.Compile(src)
		if SimplePongo(src) {
			accepted++
			if cerr != nil {
				t.Errorf("SimplePongo(%q) but Compile fails: %v", src, cerr)
			}
		}
	}
	if accepted < 5 || accepted == len(simpleSeeds) {
		t.Fatalf("SimplePongo accepted %d of %d seeds: the seeds do not test both sides", accepted, len(simpleSeeds))
	}
	for _, src := range []string{"{{ a }}", "x {{ a.b|upper|default:\"-\" }} y", "{{a}}{{b}}"} {
		if !SimplePongo(src) {
			t.Errorf("SimplePongo(%q) = false, want true", src)
		}
	}
	for _, src := range []string{"{{ a|nosuchfilter }}", "{{ world.in }}", "{% if a %}{% endif %}", "{{ a"} {
		if SimplePongo(src) {
			t.Errorf("SimplePongo(%q) = true, want false", src)
		}
	}
}

// FuzzSimplePongo: whatever SimplePongo accepts, pongo2 compiles.
func FuzzSimplePongo(f *testing.F) {
	for _, s := range simpleSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || !SimplePongo(src) {
			return
		}
		if _, err := NewPongoLoader().Compile(src); err != nil {
			t.Fatalf("SimplePongo(%q) but Compile fails: %v", src, err)
		}
		if strings.Contains(src, "{%") {
			t.Fatalf("SimplePongo accepted a {%% %%} tag: %q", src)
		}
	})
}
