package expr

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Value is a compiled tree of YAML-decoded values (maps, lists, scalars)
// whose strings are {{ }} templates; see PrepareValue.
type Value struct {
	root vNode
}

// vNode is one node of a prepared value tree.
type vNode interface {
	render(env Env) (any, error)
}

// vMap is a map with its keys in the order of their text.
type vMap[K comparable] struct {
	keys []K
	vals []vNode
}

type vList []vNode

// vTpl is a string template; path is its place in the tree.
type vTpl struct {
	t    *Template
	path string
}

type vLit struct{ v any }

// PrepareValue compiles every string template in v once (errors: *Error with Path).
func PrepareValue(v any) (*Value, error) {
	n, err := prepare(v, "")
	if err != nil {
		return nil, err
	}
	return &Value{root: n}, nil
}

// CompileValue compile-checks every string template in v.
func CompileValue(v any) error {
	_, err := prepare(v, "")
	return err
}

// Render renders the prepared tree against env.
func (pv *Value) Render(env Env) (any, error) {
	return pv.root.render(env) // each program fills the roots it names
}

func joinPath(base, key string) string {
	if base == "" {
		return key
	}
	return base + "." + key
}

func withPath(err error, path string) error {
	if e, ok := err.(*Error); ok {
		c := *e
		c.Path = cmp.Or(c.Path, path)
		return &c
	}
	return err
}

func prepare(v any, path string) (vNode, error) {
	switch v := v.(type) {
	case string:
		if !IsTemplate(v) {
			return vLit{v}, nil
		}
		t, err := CompileTemplate(v)
		if err != nil {
			return nil, withPath(err, path)
		}
		return vTpl{t, path}, nil
	case map[string]any:
		return prepareMap(v, path)
	case map[any]any:
		return prepareMap(v, path)
	case []any:
		l := make(vList, len(v))
		for i, x := range v {
			n, err := prepare(x, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			l[i] = n
		}
		return l, nil
	}
	return vLit{v}, nil
}

// prepareMap prepares the values of m in the order of their keys' text.
func prepareMap[K comparable](m map[K]any, path string) (vNode, error) {
	out := &vMap[K]{keys: slices.SortedFunc(maps.Keys(m), func(a, b K) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })}
	for _, k := range out.keys {
		n, err := prepare(m[k], joinPath(path, fmt.Sprint(k)))
		if err != nil {
			return nil, err
		}
		out.vals = append(out.vals, n)
	}
	return out, nil
}

func (n vLit) render(Env) (any, error) { return n.v, nil }

func (n vTpl) render(env Env) (any, error) {
	out, err := n.t.Render(env)
	if err != nil {
		return nil, withPath(err, n.path)
	}
	return out, nil
}

func (m *vMap[K]) render(env Env) (any, error) {
	out := make(map[K]any, len(m.keys))
	for i, k := range m.keys {
		x, err := m.vals[i].render(env)
		if err != nil {
			return nil, err
		}
		out[k] = x
	}
	return out, nil
}

func (l vList) render(env Env) (any, error) {
	out := make([]any, len(l))
	for i, x := range l {
		y, err := x.render(env)
		if err != nil {
			return nil, err
		}
		out[i] = y
	}
	return out, nil
}
