package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

func TestImportExitContract(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: p}
root: s
intents: {go: {}}
imports:
  kid:
    source: ./kid/app.yaml
    exits:
      gone: {to: s}
states:
  s:
    on:
      go: [{target: kid}]
`)
	write(t, dir, "kid/app.yaml", `app: {id: k}
root: a
intents: {fin: {}, quit: {}}
world:
  outcome: {type: string, default: ""}
exits:
  done: {requires: [outcome]}
states:
  a:
    on:
      fin: [{target: "@exit:done"}]
`)
	_, ds := Load(dir, story.Options{})
	out := render(ds)
	for _, want := range []string{
		`imports.kid: exits.gone: child does not declare an exit named "gone"`,
		`imports.kid: child uses @exit:done but parent does not map it`,
		`imports.kid: state "a" intent "fin" transitions to @exit:done but does not set required key(s) [outcome] (declared in child.exits.done.requires)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
