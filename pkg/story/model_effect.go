package story

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"
)

// KV is one ordered key/value pair; Value is the raw YAML-decoded value.
type KV struct {
	Key   string
	Value any
	Pos   Pos // position of the value
}

// Effect is one entry of on_enter, a transition's effects, on_complete or an
// inline effects list. Only the first of Set > Increment > Say > Invoke runs.
type Effect struct {
	When   string
	Set    []KV
	Say    string
	Invoke string
	With   map[string]any // raw tree; strings are {{ }} templates

	// More holds the keys most effects do not write; nil when there is none.
	More *EffectMore

	// Written is the set of keys the effect was written with.
	Written EffectKeys
	// Blank is the set of keys written with a value holding nothing of the
	// type the key reads (blankValue): null or nothing, {} for a mapping,
	// [] for a list, "" for a string. A value of another type is not blank.
	Blank EffectKeys
	Pos   Pos
	// keys holds the position of each key's value (KeyPos), as a compact list.
	keys []keyAt

	// with locates the values under with: (withPos); nil without with:.
	with *withIndex
}

// EffectMore holds the effect keys most effects do not write.
type EffectMore struct {
	Increment  []KV
	ID         string
	Bind       []KV // world key -> result path or template (string)
	OnError    string
	Emit       string
	Background bool
	Once       bool
	OnComplete []*Effect
	Target     string // only inside on_complete
	EmitIntent string
	Slots      []KV // slot values for emit_intent
	Effects    []*Effect
	Agent      string // agent_plugins alias ("" = agent.claude)
	Selection  *Selection
	// Timeout is a host.agent.* call's hard timeout as written ("" = --call-timeout).
	Timeout string
}

// Extra returns the effect's EffectMore, allocating it on first use.
func (e *Effect) Extra() *EffectMore { return extra(&e.More) }

// noEffectMore is what a Effect without More reads as; it is never written.
var noEffectMore EffectMore

// more returns the Effect's EffectMore for reading: never nil.
func (e *Effect) more() *EffectMore { return cmp.Or(e.More, &noEffectMore) }

// The readers of the keys EffectMore holds (zero values when More is nil).
func (e *Effect) Increment() []KV       { return e.more().Increment }
func (e *Effect) ID() string            { return e.more().ID }
func (e *Effect) Bind() []KV            { return e.more().Bind }
func (e *Effect) OnError() string       { return e.more().OnError }
func (e *Effect) Emit() string          { return e.more().Emit }
func (e *Effect) Background() bool      { return e.more().Background }
func (e *Effect) Once() bool            { return e.more().Once }
func (e *Effect) OnComplete() []*Effect { return e.more().OnComplete }
func (e *Effect) Target() string        { return e.more().Target }
func (e *Effect) EmitIntent() string    { return e.more().EmitIntent }
func (e *Effect) Slots() []KV           { return e.more().Slots }
func (e *Effect) Effects() []*Effect    { return e.more().Effects }
func (e *Effect) Agent() string         { return e.more().Agent }
func (e *Effect) Selection() *Selection { return e.more().Selection }
func (e *Effect) Timeout() string       { return e.more().Timeout }

// Literals is every value the effect writes as written in the story: its
// with: map, then the values of its set:, increment: and slots:.
func (e *Effect) Literals() []any {
	vals := []any{e.With}
	for _, kvs := range [][]KV{e.Set, e.Increment(), e.Slots()} {
		for _, kv := range kvs {
			vals = append(vals, kv.Value)
		}
	}
	return vals
}

// withIndex holds the position of every value under an effect's with: by
// path, or, when the tree holds an alias, the with: tree itself.
type withIndex struct {
	at   []withAt
	seq  bool // the with: value is a list
	node *yaml.Node
}

// withAt is the position of one with: value by its dotted path.
type withAt struct {
	path      string
	line, col int32
	seq       bool // the value is a list
}

// keyAt is the position of one key's value, in the effect's file.
type keyAt struct {
	key       string
	line, col int32
}

// KeyPos returns the position of the value of key, if the effect has it.
func (e *Effect) KeyPos(key string) (Pos, bool) {
	if i := slices.IndexFunc(e.keys, func(k keyAt) bool { return k.key == key }); i >= 0 {
		return Pos{File: e.Pos.File, Line: int(e.keys[i].line), Col: int(e.keys[i].col)}, true
	}
	return Pos{}, false
}

// CallTimeout parses the effect's timeout: (0 when unset).
func (e *Effect) CallTimeout() (time.Duration, error) {
	if e.Timeout() == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(e.Timeout())
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("timeout: %q is not a positive duration; write it like 90s or 5m", e.Timeout())
	}
	return d, nil
}

// PosOf returns the position of the value of key, or the effect's own.
func (e *Effect) PosOf(key string) Pos {
	if p, ok := e.KeyPos(key); ok {
		return p
	}
	return e.Pos
}

// PosOf returns the position of the value of key, or the state's own.
func (s *State) PosOf(key string) Pos {
	if p, ok := s.Keys[key]; ok {
		return p
	}
	return s.Pos
}

// CopyKeyPos gives e the key positions of src, its with: values' too (a
// copy has none of its own; the with: index is never changed once read).
func (e *Effect) CopyKeyPos(src *Effect) {
	if len(src.keys) > 0 {
		e.keys = append([]keyAt(nil), src.keys...)
	}
	e.with = src.with
}

// SetKeyPos records where the value of key is, for an effect built outside
// the loader; a position in another file keeps only its line and column.
func (e *Effect) SetKeyPos(key string, p Pos) {
	if i := slices.IndexFunc(e.keys, func(k keyAt) bool { return k.key == key }); i >= 0 {
		e.keys = append(e.keys[:i:i], e.keys[i+1:]...)
	}
	e.keys = append(e.keys[:len(e.keys):len(e.keys)], keyAt{key: key, line: int32(p.Line), col: int32(p.Col)})
}

// Selection is an effect's selection: pin.
type Selection struct {
	Profile         string
	Model           string
	Effort          string
	Evidence        string
	FallbackProfile string
	Pos             Pos
	Keys            map[string]Pos
}
