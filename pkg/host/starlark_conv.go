package host

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"go.starlark.net/starlark"

	"kitsoki/internal/jsonvalue"
)

// errUint64 is upstream's refusal of a YAML whole number that is not
// negative (a uint64) anywhere in a script's inputs or a world value it
// reads, in its words and without a path (conformance star-uint64).
var errUint64 = errors.New("cannot convert Go value of type uint64 to Starlark")

// toStarlark converts a JSON-like Go value.
func toStarlark(v any) (starlark.Value, error) {
	if _, ok := v.(uint64); ok {
		return nil, errUint64
	}
	if n, ok := jsonvalue.Integer(v); ok {
		return starlark.MakeInt64(n), nil
	}
	switch t := v.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(t), nil
	case float64:
		return starlark.Float(t), nil
	case float32:
		return starlark.Float(t), nil
	case string:
		return starlark.String(t), nil
	case map[string]any:
		d := starlark.NewDict(len(t))
		keys := slices.Sorted(maps.Keys(t))
		for _, k := range keys {
			x, err := toStarlark(t[k])
			if err != nil {
				return nil, pathErr(k, err)
			}
			if err := d.SetKey(starlark.String(k), x); err != nil {
				return nil, err
			}
		}
		return d, nil
	case []any:
		l := make([]starlark.Value, len(t))
		for i, e := range t {
			x, err := toStarlark(e)
			if err != nil {
				return nil, pathErr(fmt.Sprintf("[%d]", i), err)
			}
			l[i] = x
		}
		return starlark.NewList(l), nil
	case []string:
		l := make([]starlark.Value, len(t))
		for i, e := range t {
			l[i] = starlark.String(e)
		}
		return starlark.NewList(l), nil
	}
	return nil, fmt.Errorf("a %T cannot be passed to Starlark", v)
}

// pathErr is err at step of a value's path, but upstream's uint64
// refusal, which names no path.
func pathErr(step string, err error) error {
	if errors.Is(err, errUint64) {
		return err
	}
	return fmt.Errorf("%s: %w", step, err)
}

// fromStarlark converts a Starlark value to a JSON-like Go value as
// upstream does: int when it fits 64 bits, else the nearest float64;
// floats as they are (NaN and ±Inf included); string keys only. Errors
// carry upstream's text (conformance star-values). A value whose JSON
// would pass the budget's value limit (maxValueBytes) is refused first: a
// list holding one list twice, 40 times over, is small in Starlark and
// copied leaf by leaf here.
func fromStarlark(v starlark.Value, m *memBudget) (any, error) {
	if max := m.valueMax(); strBound(v, false) > max {
		return nil, fmt.Errorf("the value would take more than %d bytes; return smaller values", max)
	}
	return convertOut(v, 0)
}

func convertOut(v starlark.Value, depth int) (any, error) {
	if depth > 100 {
		return nil, fmt.Errorf("value nests deeper than 100 levels")
	}
	switch t := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(t), nil
	case starlark.Int:
		if n, ok := t.Int64(); ok && n >= math.MinInt && n <= math.MaxInt {
			return int(n), nil
		}
		f, _ := starlark.AsFloat(t)
		return f, nil
	case starlark.Float:
		return float64(t), nil
	case starlark.String:
		return string(t), nil
	case *starlark.Dict:
		out := make(map[string]any, t.Len())
		for _, it := range t.Items() {
			k, ok := it[0].(starlark.String)
			if !ok {
				return nil, fmt.Errorf("dict key %s is not a string", it[0].String())
			}
			x, err := convertOut(it[1], depth+1)
			if err != nil {
				return nil, err
			}
			out[string(k)] = x
		}
		return out, nil
	case *starlark.List, starlark.Tuple:
		seq := t.(starlark.Indexable)
		out := make([]any, seq.Len())
		for i := range out {
			x, err := convertOut(seq.Index(i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot convert Starlark value of type %s to a Go output", v.Type())
}
