package story

import "slices"

// EffectKeys is the set of keys an effect was written with (set,
// increment, say, invoke, ...), even when their value is empty.
type EffectKeys uint32

// EffectKeysOf is the set of the given effect keys.
func EffectKeysOf(names ...string) EffectKeys {
	var k EffectKeys
	for _, n := range names {
		k = k.With(n)
	}
	return k
}

// Has reports whether name is in the set.
func (k EffectKeys) Has(name string) bool {
	i := slices.Index(effectKeys, name)
	return i >= 0 && k&(1<<uint(i)) != 0
}

// With is the set with name added (unchanged when name is no effect key).
func (k EffectKeys) With(name string) EffectKeys {
	if i := slices.Index(effectKeys, name); i >= 0 {
		return k | 1<<uint(i)
	}
	return k
}
