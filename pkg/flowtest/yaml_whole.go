package flowtest

// yamlWhole returns v with every non-negative whole number a fixture wrote
// (the reader's int64) as the engine holds a whole number written in YAML
// (an int): upstream keeps a fixture value in its YAML shape wherever it
// is not read back from the session's log — an intent's slots and a host
// stub's data on either path, initial_world and world_override on the
// legacy path — and a view's when: counts such a 0 as true (conformance
// fixture-yaml-whole-numbers; pkg/view whenEnv). Maps and lists are copied
// where they hold one; nil stays nil.
func yamlWhole(v any) any {
	switch x := v.(type) {
	case int64:
		if x >= 0 {
			return int(x)
		}
	case map[string]any:
		if x == nil {
			return v
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = yamlWhole(e)
		}
		return out
	case []any:
		if x == nil {
			return v
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = yamlWhole(e)
		}
		return out
	}
	return v
}

// legacyWhole is yamlWhole on the legacy path, v unchanged on the
// orchestrator's (whose world is read back from its log).
func (fr *fixtureRun) legacyWhole(v any) any {
	if fr.legacy {
		return yamlWhole(v)
	}
	return v
}
