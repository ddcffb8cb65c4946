package fold

import (
	"reflect"
	"slices"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// cloneExported returns a shallow copy of src's exported fields only.
func cloneExported[T any](src *T) *T {
	if src == nil {
		return nil
	}
	dst := new(T)
	sv, dv := reflect.ValueOf(src).Elem(), reflect.ValueOf(dst).Elem()
	for i := range sv.NumField() {
		if sv.Type().Field(i).IsExported() {
			dv.Field(i).Set(sv.Field(i))
		}
	}
	return dst
}

// mapSlice is in with f applied to each element (nil stays nil).
func mapSlice[T any](in []T, f func(T) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// mapValues is m with f applied to each value (nil stays nil).
func mapValues[T any](m map[string]T, f func(T) T) map[string]T {
	if m == nil {
		return nil
	}
	out := make(map[string]T, len(m))
	for k, v := range m {
		out[k] = f(v)
	}
	return out
}

func copyKVs(in []story.KV) []story.KV {
	return mapSlice(in, func(kv story.KV) story.KV {
		return story.KV{Key: kv.Key, Value: jsonvalue.CopyNilAsEmpty(kv.Value), Pos: kv.Pos}
	})
}

func copyWorldVar(w *story.WorldVar) *story.WorldVar {
	c := cloneExported(w)
	c.Values = append([]any(nil), w.Values...)
	c.Default = jsonvalue.CopyNilAsEmpty(w.Default)
	return c
}

func copyEffects(in []*story.Effect) []*story.Effect { return mapSlice(in, copyEffect) }

func copyEffect(e *story.Effect) *story.Effect {
	if e == nil {
		return nil
	}
	c := cloneExported(e)
	c.CopyKeyPos(e)
	c.Set = copyKVs(e.Set)
	if m := e.More; m != nil {
		cm := *m
		cm.Increment = copyKVs(m.Increment)
		cm.Bind = copyKVs(m.Bind)
		cm.Slots = copyKVs(m.Slots)
		cm.OnComplete = copyEffects(m.OnComplete)
		cm.Effects = copyEffects(m.Effects)
		c.More = &cm
	}
	if e.With != nil {
		c.With = jsonvalue.CopyNilAsEmpty(e.With).(map[string]any)
	}
	return c
}

func copyElements(in []*story.ViewElement) []*story.ViewElement {
	return mapSlice(in, func(el *story.ViewElement) *story.ViewElement {
		if el == nil {
			return nil
		}
		c := cloneExported(el)
		c.Body = jsonvalue.CopyNilAsEmpty(el.Body)
		return c
	})
}

func copyView(v *story.View) *story.View {
	if v == nil {
		return nil
	}
	c := cloneExported(v)
	c.Elements = copyElements(v.Elements)
	c.Blocks = mapValues(v.Blocks, copyElements)
	c.BlockOrder = slices.Clone(v.BlockOrder)
	return c
}

func copyTransition(t *story.Transition) *story.Transition {
	if t == nil {
		return nil
	}
	c := cloneExported(t)
	c.Effects = copyEffects(t.Effects)
	if m := t.More; m != nil {
		cm := *m
		cm.View = copyView(m.View)
		cm.Emit = slices.Clone(m.Emit)
		c.More = &cm
	}
	return c
}

func copyIntent(in *story.Intent) *story.Intent {
	if in == nil {
		return nil
	}
	c := cloneExported(in)
	c.Examples = slices.Clone(in.Examples)
	c.Synonyms = slices.Clone(in.Synonyms)
	c.SlotOrder = slices.Clone(in.SlotOrder)
	c.Slots = copyMap(in.Slots)
	return c
}

// copyState deep-copies s and its subtree; parent is the copy's parent.
func copyState(s *story.State, parent *story.State) *story.State {
	c := cloneExported(s)
	c.Parent = parent
	c.View = copyView(s.View)
	c.OnEnter = copyEffects(s.OnEnter)
	if s.On != nil {
		c.On = make([]story.OnIntent, len(s.On))
		for i, on := range s.On {
			c.On[i] = story.OnIntent{Intent: on.Intent, Pos: on.Pos, Arms: mapSlice(on.Arms, copyTransition)}
		}
	}
	c.Intents = mapValues(s.Intents, copyIntent)
	c.IntentOrder = slices.Clone(s.IntentOrder)
	c.RelevantWorld = slices.Clone(s.RelevantWorld)
	if m := s.More; m != nil {
		cm := *m
		cm.OnExit = copyEffects(m.OnExit)
		cm.Menu = slices.Clone(m.Menu)
		cm.RelevantSlots = slices.Clone(m.RelevantSlots)
		cm.Timeout = cloneExported(m.Timeout)
		cm.AgentOffRamp = cloneExported(m.AgentOffRamp)
		cm.ContextualRouting = cloneExported(m.ContextualRouting)
		c.More = &cm
	}
	// A folded import wrapper is an ordinary compound state.
	c.Import = nil
	c.Children = nil
	for _, ch := range s.Children {
		c.Children = append(c.Children, copyState(ch, c))
	}
	return c
}
