package flowtest

import "kitsoki/internal/jsonvalue"

// yamlWhole returns v (copied) with every non-negative whole number a
// fixture wrote as a uint64, the shape upstream keeps wherever a value is
// not read back from its log (conformance fixture-yaml-whole-numbers).
func yamlWhole(v any) any {
	return jsonvalue.MapLeaves(v, func(leaf any) any {
		if n, ok := leaf.(int64); ok && n >= 0 {
			return uint64(n)
		}
		return leaf
	})
}

// legacyWhole is yamlWhole on the legacy path, v unchanged on the
// orchestrator's (whose world is read back from its log).
func (fr *fixtureRun) legacyWhole(v any) any {
	if fr.legacy {
		return yamlWhole(v)
	}
	return v
}
