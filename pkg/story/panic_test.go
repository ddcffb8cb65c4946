package story

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// internalMessages is the messages of ds's internal diagnostics.
func internalMessages(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if d.Rule == RuleInternal.ID {
			out = append(out, d.Message)
		}
	}
	return out
}

// A panic while loading or while parsing an import override is one
// internal diagnostic in the one panic wording (internal/panicked), the
// stack on stderr and out of the message. No story is known to panic the
// loader, so the seam is the load function guarded runs.
func TestLoaderPanicIsOneInternalDiagnostic(t *testing.T) {
	var s []int
	cases := []struct {
		name string
		run  func() []diag.Diagnostic
		want string
	}{
		{"load", func() []diag.Diagnostic {
			st, ds := newLoader(Options{}).guarded("app.yaml", func() *Story { return &Story{States: make([]*State, s[1])} })
			if st != nil {
				t.Errorf("a story after a panic")
			}
			return ds
		}, "loading the story: the loader panicked: runtime error: index out of range [1] with length 0"},
		{"override", func() []diag.Diagnostic {
			o := &ImportOverrides{file: "app.yaml", dir: "."}
			return o.parse(&yaml.Node{Kind: yaml.MappingNode}, "a", NewOverrideBudget(1000), func(*fileParser, *yaml.Node) { panic("kaboom\nline two") })
		}, "parsing an import override: the parser panicked: kaboom line two"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msgs := internalMessages(c.run())
			want := c.want + " (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr)"
			if len(msgs) != 1 || msgs[0] != want {
				t.Fatalf("internal diagnostics %q, want [%q]", msgs, want)
			}
		})
	}
}
