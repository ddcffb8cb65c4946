package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A child's exit requires are checked on the child as folded: the
// transitions a grand-child brings in through an exit mapped to
// "@exit:<x>" (named <g>.<state>, <g>__<intent>; the mapping's set:
// counts, a set: of a key the grand-child declares does not), and the
// states its importer overrides, as overridden. The wanted texts are the
// existing engine's `validate` output for the same stories (found by gen
// -kind import, seed 400035).
func TestImportExitRequiresAsFolded(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: p}
root: home
intents: {enter: {}}
imports:
  kid:
    source: ./kid
    exits:
      done: {to: home}
    overrides:
      states:
        k2:
          on:
            poke: [{target: "@exit:done"}]
            quit: [{target: "@exit:done", effects: [{set: {t: q}}]}]
states:
  home:
    on:
      enter: [{target: kid}]
`)
	write(t, dir, "kid/app.yaml", `app: {id: kid}
world:
  t: {type: string, default: ""}
intents: {poke: {}, quit: {}}
exits:
  done: {requires: [t]}
root: k1
imports:
  gk:
    source: ../gk
    exits:
      bail: {to: "@exit:done"}
      fin: {to: "@exit:done", set: {t: x}}
      alt: {to: "@exit:done", set: {m: 1}}
states:
  k1:
    on:
      poke: [{target: gk}]
  k2:
    on:
      poke: [{target: "@exit:done", effects: [{set: {t: q}}]}]
      quit: [{target: "@exit:done"}]
`)
	write(t, dir, "gk/app.yaml", `app: {id: gk}
world:
  g: {type: string, default: ""}
  own: {type: string, default: ""}
intents: {bail: {}, fin: {}, alt: {}}
exits: {bail: {}, fin: {}, alt: {}}
root: g1
states:
  g1:
    on:
      bail: [{target: "@exit:bail", effects: [{set: {g: y}}]}]
      fin: [{target: "@exit:fin"}]
      alt: [{target: "@exit:alt"}]
  gc:
    type: compound
    initial: gc1
    states:
      gc1:
        on:
          bail: [{target: "@exit:bail"}]
          fin: [{target: "@exit:bail", effects: [{set: {t: z}}]}]
          alt: [{target: "@exit:bail", effects: [{set: {own: z}}]}]
`)
	_, ds := Load(dir, story.Options{})
	out := render(ds)
	msg := func(state, intent string) string {
		return `imports.kid: state "` + state + `" intent "` + intent + `" transitions to @exit:done but does not set required key(s) [t] (declared in child.exits.done.requires)`
	}
	for _, want := range []string{msg("gk.g1", "gk__bail"), msg("gk.g1", "gk__alt"), msg("gk.gc.gc1", "gk__bail"), msg("k2", "poke")} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	for _, not := range []string{msg("gk.g1", "gk__fin"), msg("gk.gc.gc1", "gk__fin"), msg("k2", "quit")} {
		if strings.Contains(out, not) {
			t.Errorf("%q reported, but its transition sets t (by the exit mapping, the bare key, or the override):\n%s", not, out)
		}
	}
	if n := strings.Count(out, "does not set required"); n != 5 {
		t.Errorf("%d requires errors, want 5 (gk.gc.gc1 gk__alt sets only the grand-child's own key):\n%s", n, out)
	}
}

// hosts: declared sees the importer's own hosts and those of the inherit
// imports folded before it, in sorted alias order (upstream's): a child
// whose alias sorts later has not brought its hosts in yet. The wanted
// text is the existing engine's `validate` output.
func TestImportHostsDeclaredSeesEarlierAliases(t *testing.T) {
	for _, c := range []struct {
		declared, inherit string
		wantErr           bool
	}{{"aa", "zz", true}, {"zz", "aa", false}} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", `app: {id: p}
hosts: [host.ok]
root: home
imports:
  `+c.declared+`: {source: ./c1, hosts: declared}
  `+c.inherit+`: {source: ./c2}
states:
  home: {}
`)
		for _, k := range []string{"c1", "c2"} {
			write(t, dir, k+"/app.yaml", "app: {id: "+k+"}\nhosts: [host.x]\nroot: k1\nstates:\n  k1: {}\n")
		}
		_, ds := Load(dir, story.Options{})
		want := `imports.` + c.declared + `: hosts: declared but parent does not list child host "host.x"`
		if got := strings.Contains(render(ds), want); got != c.wantErr {
			t.Errorf("declared %s, inherit %s: error %v, want %v:\n%s", c.declared, c.inherit, got, c.wantErr, render(ds))
		}
	}
}

// An on_complete target "." does not load upstream, written so or reached
// through an exit its importer maps to "." (named at the folded state).
func TestOnCompleteStayIsAnError(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: p}
hosts: [host.job]
root: home
imports:
  kid:
    source: ./kid
    exits:
      bail: {to: "."}
states:
  home:
    on_enter:
      - invoke: host.job
        background: true
        on_complete: [{target: "."}]
`)
	write(t, dir, "kid/app.yaml", `app: {id: kid}
hosts: [host.job]
intents: {poke: {}}
exits: {bail: {}}
root: k1
states:
  k1:
    on_enter:
      - invoke: host.job
        background: true
        on_complete: [{target: "@exit:bail"}]
    on:
      poke: [{target: "@exit:bail"}]
`)
	wantDiags(t, dir,
		`state "home" on_enter[0] on_complete[0]: target "." (resolved: ".") does not exist`,
		`imports.kid: exits.bail.to: state "kid.k1" on_enter[0] on_complete[0]: target "." (resolved: ".") does not exist`,
	)
}

// An on_complete target naming an exit of the top story does not load
// upstream either (no state), written so or through an import's exit
// mapped to the top story's own exit; inside a child it is the importer's
// state and loads.
func TestOnCompleteTopExitIsAnError(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: p}
hosts: [host.job]
exits: {out: {}}
root: home
imports:
  kid:
    source: ./kid
    exits:
      bail: {to: "@exit:out"}
      done: {to: home}
states:
  home:
    on_enter:
      - invoke: host.job
        background: true
        on_complete: [{target: "@exit:out"}]
`)
	write(t, dir, "kid/app.yaml", `app: {id: kid}
hosts: [host.job]
exits: {bail: {}, done: {}}
root: k1
states:
  k1:
    on_enter:
      - invoke: host.job
        background: true
        on_complete: [{target: "@exit:bail"}]
      - invoke: host.job
        background: true
        on_complete: [{target: "@exit:done"}]
`)
	out := wantDiags(t, dir,
		`state "home" on_enter[0] on_complete[0]: target "@exit:out" (resolved: "@exit:out") does not exist`,
		`imports.kid: exits.bail.to: state "kid.k1" on_enter[0] on_complete[0]: target "@exit:out" (resolved: "@exit:out") does not exist`,
	)
	if strings.Contains(out, "exits.done") || strings.Count(out, "error:") != 2 {
		t.Errorf("want exactly the two errors above:\n%s", out)
	}
}

// host_bindings may name a grand-child's interface as lifted
// (<gchild>__<iface>); one that is not there is the same error as a
// missing child interface (upstream's text).
func TestImportHostBindingsLifted(t *testing.T) {
	for _, c := range []struct {
		key     string
		wantErr bool
	}{{"gk__rep", false}, {"gk__nope", true}, {"zz__rep", true}} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", `app: {id: p}
hosts: [host.ok, host.ok2]
root: home
imports:
  kid:
    source: ./kid
    host_bindings: {`+c.key+`: host.ok2}
states:
  home: {}
`)
		write(t, dir, "kid/app.yaml", "app: {id: kid}\nroot: k1\nimports:\n  gk: {source: ../gk}\nstates:\n  k1: {}\n")
		write(t, dir, "gk/app.yaml", `app: {id: gk}
hosts: [host.ok]
host_interfaces:
  rep: {operations: {say: {input: {x: string}}}, default: host.ok}
root: g1
states:
  g1: {}
`)
		_, ds := Load(dir, story.Options{})
		want := `imports.kid: host_bindings.` + c.key + `: no matching host_interface (looked for "kid__` + c.key + `" in lifted child interfaces)`
		if got := strings.Contains(render(ds), want); got != c.wantErr {
			t.Errorf("%s: error %v, want %v:\n%s", c.key, got, c.wantErr, render(ds))
		}
	}
}

// wantDiags loads the story in dir, fails for each of wants its
// diagnostics do not hold, and returns them rendered.
func wantDiags(t *testing.T, dir string, wants ...string) string {
	t.Helper()
	_, ds := Load(dir, story.Options{})
	out := render(ds)
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	return out
}
