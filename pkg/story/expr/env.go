package expr

// Env is the evaluation environment: root name -> value. The roots a guard
// may reach into are world, slots, event, run, args, menu, item, proposal,
// inbox, workspace and result; pongo2 templates also see state and the view
// helper functions.
type Env = map[string]any

// compileEnv declares every root as a map so member access type-checks as
// "unknown" rather than failing; undeclared identifiers are allowed too.
var compileEnv = func() map[string]any {
	m := make(map[string]any, len(roots))
	for _, r := range roots {
		m[r] = map[string]any{}
	}
	return m
}()

// withRoots returns env with an empty map for every root env lacks, so that
// `world.x` on an absent world is nil rather than an error. env itself is
// never modified; it is returned as is when nothing is missing.
func withRoots(env Env) Env {
	missing := false
	for _, r := range roots {
		if _, ok := env[r]; !ok {
			missing = true
			break
		}
	}
	if !missing {
		return env
	}
	out := make(Env, len(env)+len(roots))
	for k, v := range env {
		out[k] = v
	}
	for _, r := range roots {
		if _, ok := out[r]; !ok {
			out[r] = map[string]any{}
		}
	}
	return out
}
