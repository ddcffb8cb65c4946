package engine

import (
	"strconv"
	"strings"
)

// LookupBindPath reads a bind: result path from an answer, as upstream
// does (conformance values-bind-paths): dot-separated map keys, each
// optionally followed by list indexes (`m[0][1]`). Nothing is trimmed; a
// path that does not match finds nothing (ok false).
func LookupBindPath(v any, path string) (any, bool) {
	if path == "" {
		return nil, false
	}
	cur := v
	for _, part := range strings.Split(path, ".") {
		name, idx, ok := splitIndexes(part)
		if !ok || name == "" {
			return nil, false
		}
		m, isMap := cur.(map[string]any)
		if !isMap {
			return nil, false
		}
		if cur, ok = m[name]; !ok {
			return nil, false
		}
		for _, i := range idx {
			l, isList := cur.([]any)
			if !isList || i >= len(l) {
				return nil, false
			}
			cur = l[i]
		}
	}
	return cur, true
}

// splitIndexes splits `name[0][1]` into its name and indexes; ok is false
// when what follows the first `[` is not a run of `[n]` with n >= 0.
func splitIndexes(part string) (name string, idx []int, ok bool) {
	i := strings.IndexByte(part, '[')
	if i < 0 {
		return part, nil, true
	}
	name, rest := part[:i], part[i:]
	for rest != "" {
		end := strings.IndexByte(rest, ']')
		if rest[0] != '[' || end < 0 {
			return "", nil, false
		}
		n, err := strconv.Atoi(rest[1:end])
		if err != nil || n < 0 {
			return "", nil, false
		}
		idx = append(idx, n)
		rest = rest[end+1:]
	}
	return name, idx, true
}

// World keys written by set:, increment:, bind: and world_override are
// flat: `a.b` is the key "a.b", not b inside a (upstream writes and
// replays them that way; conformance values-bind-paths).
func setPath(w World, key string, val any) { w[key] = val }

// getPath reads a world key (flat, see setPath).
func getPath(w World, key string) any { return w[key] }
