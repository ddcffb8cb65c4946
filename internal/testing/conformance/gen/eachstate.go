package main

// eachState calls visit on every state under states, in sorted key order,
// depth first, a state before the states it holds (read after visit
// returns); path is the state's dotted path under prefix ("" at the top).
// A value that is not a mapping is no state and is skipped.
func eachState(prefix string, states m, visit func(path string, st m)) {
	eachStateWith(prefix, states, struct{}{}, func(path string, st m, _ struct{}) struct{} {
		visit(path, st)
		return struct{}{}
	})
}

// eachStateWith is eachState carrying a value down the tree: visit gets
// the value its parent's visit returned (in, for the top states) and
// returns the one the states it holds get.
func eachStateWith[T any](prefix string, states m, in T, visit func(path string, st m, in T) T) {
	for _, k := range sortedKeys(states) {
		st, ok := states[k].(m)
		if !ok {
			continue
		}
		p := joinPath(prefix, k)
		out := visit(p, st, in)
		if ch, ok := st["states"].(m); ok {
			eachStateWith(p, ch, out, visit)
		}
	}
}

// joinPath is the dotted path of state k under the state at prefix ("" at
// the top).
func joinPath(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}
