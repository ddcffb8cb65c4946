package phases

import (
	"reflect"
	"sort"

	"kitsoki/pkg/story"
)

var (
	posType    = reflect.TypeOf(story.Pos{})
	stateType  = reflect.TypeOf(story.State{})
	storyType  = reflect.TypeOf(story.Story{})
	effectType = reflect.TypeOf(story.Effect{})
)

// copier deep-copies template nodes (states, effects) through their
// exported fields, substituting every string — map keys included — with
// the graph entry's binding (state keys by [binding.key], the rest by
// [binding.body]). Positions are kept: a generated state points
// at the template text it came from. Unexported fields (pkg/story's
// private indices) are left zero; Parent links are rebuilt by the caller.
type copier struct {
	b *binding
	// left is what every graph entry's copies may still take together
	// (limits.go); once spent, nothing more is copied.
	left *allowance
}

func (c *copier) value(v reflect.Value, p story.Pos) reflect.Value {
	if !c.left.take(1, 0) {
		return reflect.New(v.Type()).Elem() // addressable, as the copies are
	}
	switch v.Kind() {
	case reflect.String:
		out := reflect.New(v.Type()).Elem()
		in := v.String()
		if n := c.b.bodyLen(in); n != len(in) && !c.left.take(0, n) {
			return out
		}
		out.SetString(c.b.body(in))
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		if v.Type().Elem() == storyType {
			return v // a loaded story (Import.Child) is shared, never copied
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(c.value(v.Elem(), p))
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(c.value(v.Elem(), p))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(c.value(v.Index(i), p))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		keys := v.MapKeys()
		if v.Type().Key().Kind() == reflect.String {
			// sorted, so problems are found in the same order every time
			sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		}
		for _, k := range keys {
			out.SetMapIndex(c.value(k, p), c.value(v.MapIndex(k), p))
		}
		return out
	case reflect.Struct:
		if v.Type() == posType {
			return v
		}
		if f := v.FieldByName("Pos"); f.IsValid() && f.Type() == posType {
			if fp := f.Interface().(story.Pos); fp.Line > 0 {
				p = fp
			}
		}
		out := reflect.New(v.Type()).Elem()
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			if t == stateType && (sf.Name == "Parent" || sf.Name == "Name" || sf.Name == "Path" || sf.Name == "Children") {
				continue // set by the caller (a state key has its own substitution)
			}
			out.Field(i).Set(c.value(v.Field(i), p))
		}
		if t == effectType && v.CanAddr() {
			// where each key is written (on_error:, target:): kept too
			out.Addr().Interface().(*story.Effect).CopyKeyPos(v.Addr().Interface().(*story.Effect))
		}
		return out
	}
	return v
}

// state copies a template state (and its subtree) for one graph entry.
// Only a top-level state key has its {param} placeholders substituted; a
// nested key is kept as written, as upstream's expansion does.
func (c *copier) state(s *story.State, parent *story.State) *story.State {
	ns := c.value(reflect.ValueOf(s).Elem(), s.Pos).Addr().Interface().(*story.State)
	ns.Name = s.Name
	if parent == nil {
		ns.Name = c.b.key(s.Name, s.Pos)
	}
	ns.Parent = parent
	ns.Path = ns.Name
	if parent != nil {
		ns.Path = parent.Path + "." + ns.Name
	}
	ns.Children = nil
	for _, ch := range s.Children {
		if ch != nil {
			ns.Children = append(ns.Children, c.state(ch, ns))
		}
	}
	return ns
}
