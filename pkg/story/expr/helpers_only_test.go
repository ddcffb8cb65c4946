package expr

// Helpers only the tests call.

// withRoots returns env with an empty map for every root env lacks, so that
// `world.x` on an absent world is nil rather than an error. env itself is
// never modified; it is returned as is when nothing is missing.
func withRoots(env Env) Env { return withNeeded(env, roots, false) }

// RenderValue renders every string template in v against env and returns a
// new tree (v is not modified). Non-string scalars are returned as is.
func RenderValue(v any, env Env) (any, error) {
	pv, err := PrepareValue(v)
	if err != nil {
		return nil, err
	}
	return pv.Render(env)
}

// guardRoots returns the roots a guard may access members of, in the order the
// whitelist message lists them.
func guardRoots() []string { return append([]string(nil), roots...) }

// guardBuiltins returns the expr-lang built-in functions a guard may call.
func guardBuiltins() []string { return append([]string(nil), builtins...) }

// guardViewFunctions returns the non-built-in functions a guard may call (view
// helpers the engine puts in the Env).
func guardViewFunctions() []string { return append([]string(nil), viewFunctions...) }
