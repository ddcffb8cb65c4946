package main

// eachState calls visit on every state under states, in sorted key order,
// depth first, a state before the states it holds (read after visit
// returns); path is the state's dotted path under prefix ("" at the top).
// A value that is not a mapping is no state and is skipped.
func eachState(prefix string, states m, visit func(path string, st m)) {
	for _, k := range sortedKeys(states) {
		st, ok := states[k].(m)
		if !ok {
			continue
		}
		p := joinPath(prefix, k)
		visit(p, st)
		if ch, ok := st["states"].(m); ok {
			eachState(p, ch, visit)
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
