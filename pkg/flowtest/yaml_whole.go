package flowtest

// yamlWhole returns v (copied) with every non-negative whole number a
// fixture wrote as an int, the shape upstream keeps wherever a value is
// not read back from its log (conformance fixture-yaml-whole-numbers).
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
