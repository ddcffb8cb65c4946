package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// pathSeg is one step of a dotted result path: a map key or a list index.
type pathSeg struct {
	key   string
	index int
	isIdx bool
}

// parsePath parses `a.b[0].c` (also `a.0.c`) into segments.
func parsePath(p string) ([]pathSeg, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return nil, fmt.Errorf("empty path")
	}
	var segs []pathSeg
	for _, part := range strings.Split(p, ".") {
		if part == "" {
			return nil, fmt.Errorf("path %q has an empty segment", p)
		}
		name := part
		rest := ""
		if i := strings.IndexByte(part, '['); i >= 0 {
			name, rest = part[:i], part[i:]
		}
		if name != "" {
			segs = append(segs, pathSeg{key: name})
		}
		for rest != "" {
			if rest[0] != '[' {
				return nil, fmt.Errorf("path %q: expected [ at %q", p, rest)
			}
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: missing ]", p)
			}
			n, err := strconv.Atoi(strings.TrimSpace(rest[1:end]))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("path %q: index %q is not a non-negative integer", p, rest[1:end])
			}
			segs = append(segs, pathSeg{index: n, isIdx: true})
			rest = rest[end+1:]
		}
	}
	return segs, nil
}

// lookupPath walks v along segs; ok is false when a step is missing.
func lookupPath(v any, segs []pathSeg) (any, bool) {
	cur := v
	for _, s := range segs {
		switch t := cur.(type) {
		case map[string]any:
			if s.isIdx {
				x, ok := t[strconv.Itoa(s.index)]
				if !ok {
					return nil, false
				}
				cur = x
				continue
			}
			x, ok := t[s.key]
			if !ok {
				return nil, false
			}
			cur = x
		case []any:
			idx := s.index
			if !s.isIdx {
				n, err := strconv.Atoi(s.key)
				if err != nil {
					return nil, false
				}
				idx = n
			}
			if idx < 0 || idx >= len(t) {
				return nil, false
			}
			cur = t[idx]
		default:
			return nil, false
		}
	}
	return cur, true
}

// setPath stores val in world under a dotted key, creating intermediate
// maps; a plain key is the common case.
func setPath(w World, key string, val any) error {
	if !strings.ContainsAny(key, ".[") {
		w[key] = val
		return nil
	}
	segs, err := parsePath(key)
	if err != nil {
		return err
	}
	if segs[0].isIdx {
		return fmt.Errorf("world key %q must start with a name", key)
	}
	var cur map[string]any = w
	for i, s := range segs {
		last := i == len(segs)-1
		if s.isIdx {
			return fmt.Errorf("world key %q: list indexes are not assignable", key)
		}
		if last {
			cur[s.key] = val
			return nil
		}
		next, ok := cur[s.key].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[s.key] = next
		}
		cur = next
	}
	return nil
}

// getPath reads a dotted world key.
func getPath(w World, key string) any {
	if !strings.ContainsAny(key, ".[") {
		return w[key]
	}
	segs, err := parsePath(key)
	if err != nil {
		return nil
	}
	v, _ := lookupPath(map[string]any(w), segs)
	return v
}
