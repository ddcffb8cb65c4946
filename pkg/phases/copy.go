package phases

import (
	"reflect"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

var (
	posType      = reflect.TypeOf(story.Pos{})
	lineColType  = reflect.TypeOf(story.LineCol{})
	stateType    = reflect.TypeOf(story.State{})
	storyPtrType = reflect.TypeOf(&story.Story{})
	effectType   = reflect.TypeOf(story.Effect{})
	// stateLinks are the state fields copier.state sets itself.
	stateLinks = []string{"Parent", "Name", "Path", "Children"}
)

// copier deep-copies template states and effects through their exported
// fields, substituting every string, map keys included, with the entry's
// binding; positions are kept, Parent links are rebuilt by the caller.
type copier struct {
	b *binding
	// left is what all graph entries' copies may still take (limits.go).
	left *allowance
}

func (c *copier) value(v reflect.Value) reflect.Value {
	if !c.left.take(1, 0) {
		return reflect.New(v.Type()).Elem() // addressable, as the copies are
	}
	switch v.Kind() {
	case reflect.String:
		out := reflect.New(v.Type()).Elem()
		if s, ok := c.b.bodyIf(v.String(), func(n int) bool { return c.left.take(0, n) }); ok {
			out.SetString(s)
		}
		return out
	case reflect.Struct:
		return c.fields(v)
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		if v.IsNil() || v.Type() == storyPtrType {
			return v // a loaded story (Import.Child) is shared, never copied
		}
		return c.held(v)
	}
	return v
}

// held copies what a non-nil pointer, interface, slice or map holds.
func (c *copier) held(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(c.value(v.Elem()))
		return out
	case reflect.Interface:
		out := reflect.New(v.Type()).Elem()
		out.Set(c.value(v.Elem()))
		return out
	case reflect.Slice:
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len() && !c.left.spent(); i++ {
			out.Index(i).Set(c.value(v.Index(i)))
		}
		return out
	}
	out := reflect.MakeMapWithSize(v.Type(), v.Len())
	keys := v.MapKeys()
	if v.Type().Key().Kind() == reflect.String {
		// sorted, so problems are found in the same order every time
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	}
	for _, k := range keys {
		if c.left.spent() {
			break
		}
		out.SetMapIndex(c.value(k), c.value(v.MapIndex(k)))
	}
	return out
}

// fields copies a struct's exported fields but a state's stateLinks.
func (c *copier) fields(v reflect.Value) reflect.Value {
	t := v.Type()
	if t == posType || t == lineColType {
		return v
	}
	out := reflect.New(t).Elem()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() || t == stateType && slices.Contains(stateLinks, sf.Name) {
			continue
		}
		out.Field(i).Set(c.value(v.Field(i)))
	}
	if t == effectType && v.CanAddr() {
		// where each key is written (on_error:, target:): kept too
		out.Addr().Interface().(*story.Effect).CopyKeyPos(v.Addr().Interface().(*story.Effect))
	}
	return out
}

// state copies a template state and its subtree for one graph entry; only
// a top-level key has its {param} placeholders substituted, as upstream.
func (c *copier) state(s *story.State, parent *story.State) *story.State {
	ns := c.value(reflect.ValueOf(s).Elem()).Addr().Interface().(*story.State)
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
		if ch != nil && !c.left.spent() {
			ns.Children = append(ns.Children, c.state(ch, ns))
		}
	}
	return ns
}
