package host

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// freezeWalk bounds g.Freeze(), which the loader calls once a file has
// run: a list, dict, set or struct freezes once (its elements are walked
// once, as memory bounds them, and not counted), but a tuple, a
// function's defaults and closed-over values and a method's receiver are
// frozen again each time they are reached: those are counted (a global
// T = (T,) * 2 sixty times walked 2^60 elements after the last statement).
// A function that closes over itself (def f(): return f, nested, kept in a
// global) is refused: upstream's freeze of it never ends, a fatal stack
// overflow that ends the process.
func freezeWalk(limit int, g starlark.StringDict) error {
	f := freezer{walker: walker{max: limit}, seen: map[starlark.Value]bool{}, path: map[*starlark.Function]bool{}}
	for _, v := range g {
		f.visit(v)
	}
	if f.cycle != nil {
		return fmt.Errorf("freezing the script's globals: function %s (%s) refers to itself through the values it closes over, which cannot be frozen; define it at the top level or keep it out of the globals", f.cycle.Name(), f.cycle.Position())
	}
	if f.n > f.limit() {
		return fmt.Errorf("freezing the script's globals reaches over %d elements, counting a child held many times each time it is reached (a tuple holding one tuple many times); build such a value inside a function", f.limit())
	}
	return nil
}

// freezer walks values as Freeze does (see freezeWalk).
type freezer struct {
	walker
	seen  map[starlark.Value]bool     // containers Freeze marks frozen
	path  map[*starlark.Function]bool // functions being frozen
	cycle *starlark.Function          // one reached again inside itself
}

func (f *freezer) visit(v starlark.Value) {
	if f.stop() || f.cycle != nil {
		return
	}
	switch v := v.(type) {
	case starlark.Tuple:
		f.n += len(v)
		for _, x := range v {
			f.visit(x)
		}
	case *starlark.List, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct:
		if !f.seen[v] {
			f.seen[v] = true
			f.elems(v)
		}
	case *starlark.Function:
		if f.path[v] {
			f.cycle = v
			return
		}
		f.path[v] = true
		defer delete(f.path, v)
		f.n += v.NumParams() + v.NumFreeVars()
		for i := 0; i < v.NumParams(); i++ {
			if x := v.ParamDefault(i); x != nil {
				f.visit(x)
			}
		}
		for i := 0; i < v.NumFreeVars(); i++ {
			if _, x := v.FreeVar(i); x != nil {
				f.visit(x)
			}
		}
	case *starlark.Builtin:
		if r := v.Receiver(); r != nil {
			f.n++
			f.visit(r)
		}
	}
}

// elems visits what a list, dict, set or struct holds.
func (f *freezer) elems(v starlark.Value) {
	switch v := v.(type) {
	case *starlark.Dict:
		for k, x := range v.Entries() {
			f.visit(k)
			f.visit(x)
		}
	case *starlarkstruct.Struct:
		for _, name := range v.AttrNames() {
			if x, _ := v.Attr(name); x != nil {
				f.visit(x)
			}
		}
	case starlark.Iterable: // a list, a set
		it := v.Iterate()
		defer it.Done()
		var x starlark.Value
		for it.Next(&x) {
			f.visit(x)
		}
	}
}
