package expr

import (
	"fmt"
	"sort"
	"strconv"
)

// Value is a compiled tree of YAML-decoded values (maps, lists, scalars)
// whose strings are {{ }} templates; see PrepareValue.
type Value struct {
	root vNode
}

type vNode interface{}

type vMap struct {
	keys []string
	vals map[string]vNode
}

type vAnyMap struct {
	keys []any
	vals []vNode
}

type vList []vNode

type vTpl struct{ t *Template }

type vLit struct{ v any }

// PrepareValue compiles every string template in v once, for repeated
// rendering. Errors are *Error with Path set to the dotted location
// ("args.draft", "items[2]") of the failing string.
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
	return renderV(pv.root, env, "") // each program fills the roots it names
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
		if c.Path == "" {
			c.Path = path
		}
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
		return vTpl{t}, nil
	case map[string]any:
		m := &vMap{vals: make(map[string]vNode, len(v))}
		for k := range v {
			m.keys = append(m.keys, k)
		}
		sort.Strings(m.keys)
		for _, k := range m.keys {
			n, err := prepare(v[k], joinPath(path, k))
			if err != nil {
				return nil, err
			}
			m.vals[k] = n
		}
		return m, nil
	case map[any]any:
		m := &vAnyMap{}
		for k := range v {
			m.keys = append(m.keys, k)
		}
		sort.Slice(m.keys, func(i, j int) bool { return fmt.Sprint(m.keys[i]) < fmt.Sprint(m.keys[j]) })
		for _, k := range m.keys {
			n, err := prepare(v[k], joinPath(path, fmt.Sprint(k)))
			if err != nil {
				return nil, err
			}
			m.vals = append(m.vals, n)
		}
		return m, nil
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

func renderV(n vNode, env Env, path string) (any, error) {
	switch n := n.(type) {
	case vLit:
		return n.v, nil
	case vTpl:
		out, err := n.t.Render(env)
		if err != nil {
			return nil, withPath(err, path)
		}
		return out, nil
	case *vMap:
		out := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			x, err := renderV(n.vals[k], env, joinPath(path, k))
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case *vAnyMap:
		out := make(map[any]any, len(n.keys))
		for i, k := range n.keys {
			x, err := renderV(n.vals[i], env, joinPath(path, fmt.Sprint(k)))
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case vList:
		out := make([]any, len(n))
		for i, x := range n {
			y, err := renderV(x, env, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	}
	return nil, nil
}
