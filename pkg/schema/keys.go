package schema

import "slices"

// sortedKeys lists m's keys in order: slices.Sorted(maps.Keys(m)) in one
// allocation of the right size (the compile walks sort every object).
func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
