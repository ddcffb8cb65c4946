package lint

import (
	"errors"
	"path/filepath"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/host/scriptiface"
	"kitsoki/pkg/story"
)

var ruleStarlark = &Rule{ID: "starlark", Severity: diag.Error, Summary: "host.starlark.run scripts exist inside the story with their sidecar, and a literal input has the type the sidecar declares",
	Example: "- {invoke: host.starlark.run, with: {script: missing.star}}"}

// checkStarlark: host.starlark.run needs with.script inside the story
// directory, and the script needs its sidecar <script>.yaml (§9.6).
func checkStarlark(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template || !runsStarlark(c.st, e, site) {
			return
		}
		p := e.WithPos("script")
		script := withString(e, "script")
		if script == "" {
			c.rep.ErrAt(p, site.Place(), ruleStarlark, "%s: host.starlark.run requires a non-empty with.script", site.String())
			return
		}
		if story.IsTemplated(script) {
			return
		}
		abs, root := c.scriptPath(script)
		if rel, err := filepath.Rel(root, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			c.rep.ErrAt(p, site.Place(), ruleStarlark, "%s: host.starlark.run script %q resolves outside the app root", site.String(), script)
			return
		}
		// through the root: a script or sidecar linked out of it is
		// refused unread, whether or not its target exists
		r := safefile.NewRoot(root)
		defer r.Close()
		if _, err := r.Stat(abs); err != nil {
			if errors.Is(err, safefile.ErrOutsideRoot) {
				c.rep.ErrAt(p, site.Place(), ruleStarlark, "%s: host.starlark.run script %q leads outside the app root through a symbolic link; keep the script inside the story's directory", site.String(), script)
				return
			}
			c.rep.ErrAt(p, site.Place(), ruleStarlark, "%s: host.starlark.run script %q not found (resolved to %q)", site.String(), script, abs)
			return
		}
		if _, err := r.Stat(abs + ".yaml"); err != nil {
			if errors.Is(err, safefile.ErrOutsideRoot) {
				c.rep.ErrAt(p, site.Place(), ruleStarlark, "%s: host.starlark.run sidecar %q leads outside the app root through a symbolic link; keep the sidecar inside the story's directory", site.String(), abs+".yaml")
				return
			}
			c.rep.ErrAt(p, site.Place(), ruleStarlark, "%s: host.starlark.run script %q has no sidecar (expected %q): %s", site.String(), script, abs+".yaml", safefile.ErrText(err))
			return
		}
		sc, err := c.sidecar(r, abs+".yaml")
		if err != nil { // upstream refuses the story at load
			c.rep.ErrAt(p, site.Place(), ruleStarlark, "%s: host.starlark.run sidecar %q is malformed: %s", site.String(), abs+".yaml", err)
			return
		}
		c.checkStarlarkInputs(e, site, sc)
	})
}

// checkStarlarkInputs refuses, as upstream's loader does, an input given a
// literal its sidecar's type refuses.
func (c *checker) checkStarlarkInputs(e *story.Effect, site effSite, sc *scriptiface.Sidecar) {
	in, ok := e.With["inputs"].(map[string]any)
	if !ok || len(in) == 0 {
		return
	}
	for _, name := range sc.InputOrder {
		v, given := in[name]
		if s, ok := v.(string); !given || ok && story.IsTemplated(s) {
			continue
		}
		// a whole number that is not negative is upstream's uint64, which
		// an int or number input refuses at load, in an arc, an on_enter
		// and an on_complete alike (testdata/broken/starlark)
		if f := sc.Inputs[name]; !scriptiface.TypeOK(f.Type, jsonvalue.YAMLInts(v)) {
			c.rep.ErrAt(e.WithPos("inputs."+name), site.Place(), ruleStarlark, "%s: host.starlark.run input %q is declared %s but is wired to a non-template %s (%v) that can never satisfy it — pass a %s literal or a {{ }} template", site.String(), name, f.Type, scriptiface.TypeName(jsonvalue.YAMLInts(v), false), v, f.Type)
			continue
		}
		c.starlarkUintInput(e, site, name)
	}
}

// sidecarRead is one sidecar read and parsed.
type sidecarRead struct {
	sc  *scriptiface.Sidecar
	err error
}

// sidecar reads and parses the sidecar at abs through r once per check,
// however many effects run its script, not once per effect
// (TestStarlarkSidecarReadOncePerCheck).
func (c *checker) sidecar(r *safefile.Root, abs string) (*scriptiface.Sidecar, error) {
	if s, ok := c.sidecars[abs]; ok {
		return s.sc, s.err
	}
	data, err := r.ReadFile(abs, scriptiface.MaxBytes)
	var sc *scriptiface.Sidecar
	if err == nil {
		sc, err = scriptiface.Parse(abs, data)
	}
	if c.sidecars == nil {
		c.sidecars = map[string]sidecarRead{}
	}
	c.sidecars[abs] = sidecarRead{sc, err}
	return sc, err
}
