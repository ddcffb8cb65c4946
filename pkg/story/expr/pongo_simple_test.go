package expr

import (
	"os"
	"path/filepath"
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
	"{{ 'foyer'|upper }}", "{{ a|default:'(pending)' }}", "{{ 'x }}", "{{ \"a'b\" }}",
	"{% if world.a == true %}yes{% else %}no{% endif %}", "{% if a %}{% elif b != 'x' %}{% else %}{% endif %}",
	"{% for f in world.files %}{{ f.path }}\n{% empty %}(none){% endfor %}\n", "{% for a, b in c %}{% endfor %}",
	"{% if not a %}{% if b == 3 %}{% endif %}{% endif %}", "{% if a %}{% else %}{% else %}{% endif %}",
	"{% if a %}{% else %}{% elif b %}{% endif %}", "{% endif %}", "{% if a %}", "{% for x in y %}{% endif %}",
	"{% if a == 012 %}{% endif %}", "{% if a == 1x %}{% endif %}", "{% if a == 'b\\'c' %}{% endif %}",
	"{% if a > 1 %}{% endif %}", "{%- if a %}{% endif %}", "{% if a -%}{% endif %}", "{% for in in y %}{% endfor %}",
	"{% for x in y reversed %}{% endfor %}", "{% if in %}{% endif %}", "{% if a %}{{ b }}{% elif c %}{% endif %}",
	"{% block x %}{% endblock %}", "{% include 'x' %}", "{% if a%}{% endif %}", "{%if a %}{% endif %}",
	"{ {{ a }} } {%", "{% for x in y %}{% empty %}{% empty %}{% endfor %}", "{% if a == truex %}{% endif %}",
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
			if checkPongoHang("t", src) != nil || len(includeNames(src)) > 0 {
				t.Errorf("SimplePongo(%q) but the hang or include check finds a tag (CheckFileSource skips them)", src)
			}
		}
	}
	if accepted < 5 || accepted == len(simpleSeeds) {
		t.Fatalf("SimplePongo accepted %d of %d seeds: the seeds do not test both sides", accepted, len(simpleSeeds))
	}
	for _, src := range []string{"{{ a }}", "x {{ a.b|upper|default:\"-\" }} y", "{{a}}{{b}}", "{% if a %}x{% else %}y{% endif %}", "{% for r in world.rows %}| {{ r.a }} |\n{% endfor %}"} {
		if !SimplePongo(src) {
			t.Errorf("SimplePongo(%q) = false, want true", src)
		}
	}
	for _, src := range []string{"{{ a|nosuchfilter }}", "{{ world.in }}", "{% if a %}", "{{ a", "{% endif %}", "{% if a %}{% else %}{% else %}{% endif %}"} {
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
		if checkPongoHang("t", src) != nil || len(includeNames(src)) > 0 {
			t.Fatalf("SimplePongo(%q) but the hang or include check finds a tag", src)
		}
		if strings.Contains(src, "{#") {
			t.Fatalf("SimplePongo accepted a comment: %q", src)
		}
	})
}

// TestCheckFileSource: CheckFileSource gives CompileFile's verdict, for a
// plain file (not built) and for broken and {% %} files (compiled).
func TestCheckFileSource(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"plain.md":  "Hello {{ world.name|default:\"you\" }}.\n",
		"broken.md": "Hello {{ world.name|nosuch }}.\n",
		"tags.md":   "{% if world.a %}a{% endif %}\n",
		"hang.md":   "{% endcomment x %}\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, want := NewPongoLoader(dir).CompileFile(p)
		got := NewPongoLoader(dir).CheckFileSource(p, []byte(src))
		if (got == nil) != (want == nil) || (got != nil && got.Error() != want.Error()) {
			t.Errorf("%s: CheckFileSource = %v, CompileFile = %v", name, got, want)
		}
		if name != "plain.md" && want == nil && name != "tags.md" {
			t.Errorf("%s: CompileFile succeeded; the case tests nothing", name)
		}
	}
}
