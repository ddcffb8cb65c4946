package expr

import (
	"slices"
	"strings"
	"testing"
)

func TestProgramWorldKeys(t *testing.T) {
	for src, want := range map[string][]string{
		`world.count > 3 && world.user.name == "x"`: {"count", "user"},
		`world?.maybe ?? 1`:                         {"maybe"},
		`world["quoted"] == 1 || world.count < 2`:   {"quoted", "count"},
		`world[slots.k] == 1`:                       nil,
		`slots.world == 1 && "world.x" != ""`:       nil,
		`len(world.items) > 0 && world.items[0].ok`: {"items"},
	} {
		p, err := CompileGuard(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := p.WorldKeys(); !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}

func TestProgramMemberReads(t *testing.T) {
	type want struct {
		keys  []string
		plain bool
	}
	for src, w := range map[string]want{
		`world.count > 3 && world?.user.name == "x"`: {[]string{"count", "user"}, true},
		`slots["k"] == 1 && slots.k != slots?.j`:     {[]string{"k", "j"}, true},
		`world.name == "hello world" && world.n > 0`: {[]string{"name", "n"}, true}, // the word in a string is no use
		`world[slots.k] == 1`:                        {nil, false},
		`len(world) > 0 || world.a`:                  {[]string{"a"}, false},
		`"a" in world`:                               {nil, false},
		`slots.world == 1 && event.kind != "world"`:  {nil, true},
		`len(world.items) > 0 && world.items[0].ok`:  {[]string{"items"}, true},
		`world.xs[world.min] && (world).k`:           {[]string{"xs", "min", "k"}, true},
	} {
		p, err := CompileGuard(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		keys, plain := p.MemberReads("world")
		if strings.HasPrefix(src, "slots[") {
			keys, plain = p.MemberReads("slots")
		}
		if !slices.Equal(keys, w.keys) || plain != w.plain {
			t.Errorf("%s: got %q %v, want %q %v", src, keys, plain, w.keys, w.plain)
		}
	}
}

func TestTemplateWorldKeys(t *testing.T) {
	for src, want := range map[string][]string{
		`{{ world.a }} and {{ world.b + world.a }}`:                         {"a", "b"},
		`{{ if world.c }}{{ range world.xs }}{{ .name }}{{ end }}{{ end }}`: {"c", "xs"},
		`plain text world.nope`:                                             nil,
	} {
		tpl, err := CompileTemplate(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := tpl.WorldKeys(); !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}

func TestPongoWorldKeys(t *testing.T) {
	type want struct {
		keys []string
		ok   bool
	}
	for src, w := range map[string]want{
		`Hi {{ world.user_name|default:world.fallback }}`:                                     {[]string{"user_name", "fallback"}, true},
		`{% if world.flag %}{{ "world.quoted" }}{% endif %} world.text`:                       {[]string{"flag"}, true},
		`{# world.commented #}{% verbatim %}{{ world.verb }}{% endverbatim %}{{ world.x.y }}`: {[]string{"x"}, true},
		`{% comment %}{{ world.c }}{% endcomment %}{{ world.after }}`:                         {[]string{"after"}, true},
		`{% for item in world.items %}{{ item.world }}{% endfor %}`:                           {[]string{"items"}, true},
		`{{ world }}{{ myworld.k }}{{ world_x }}`:                                             {nil, true},
		`{% with world=slots %}{{ world.k }}{% endwith %}`:                                    {nil, false},
		`{% for world in slots.list %}{{ world.k }}{% endfor %}`:                              {nil, false},
	} {
		if _, err := CompilePongo(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		keys, ok := PongoWorldKeys(src)
		if !slices.Equal(keys, w.keys) || ok != w.ok {
			t.Errorf("%s: got %q %v, want %q %v", src, keys, ok, w.keys, w.ok)
		}
	}
}

// FuzzPongoWorldKeys: any source, compiled or not, is scanned without a
// panic and yields only identifier keys.
func FuzzPongoWorldKeys(f *testing.F) {
	for _, s := range []string{`{{ world.a }}`, `{% if world.b %}{% endif %}`, `{{ "world.x`, `{% comment %}{{ world.c }}`, `{#`, `{{ world.`, `{% for world in x %}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		keys, ok := PongoWorldKeys(src)
		if !ok && keys != nil {
			t.Fatalf("%q: keys %q with ok false", src, keys)
		}
		for _, k := range keys {
			if k == "" || !isIdentStart(k[0]) {
				t.Fatalf("%q: key %q is no identifier", src, k)
			}
		}
	})
}

// TestTemplateReads: a template's roots and world reads are those of all
// its expressions; a read other than by name makes it not plain.
func TestTemplateReads(t *testing.T) {
	for _, c := range []struct {
		src   string
		roots []string
		keys  []string
		plain bool
	}{
		{"[{{ world.a }}] {{ slots.b }} {{ world.a + world.c }}", []string{"world", "slots"}, []string{"a", "c"}, true},
		{"{{ len(world) }}", []string{"world"}, nil, false},
		{"{{ if world.a }}{{ world[world.k] }}{{ end }}", []string{"world"}, []string{"a", "k"}, false},
		{"plain text", nil, nil, true},
	} {
		tm, err := CompileTemplate(c.src)
		if err != nil {
			t.Fatal(c.src, err)
		}
		roots, all := tm.Roots()
		keys, plain := tm.MemberReads("world")
		if all || !slices.Equal(roots, c.roots) || !slices.Equal(keys, c.keys) || plain != c.plain {
			t.Errorf("%q: roots %v (all %v), keys %v plain %v; want %v, %v, %v", c.src, roots, all, keys, plain, c.roots, c.keys, c.plain)
		}
	}
}
