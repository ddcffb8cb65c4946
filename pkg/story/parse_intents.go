package story

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// parseIntents parses an intents: block at where (its YAML path). owner
// starts the place its synonym errors name, as upstream words them: ""
// for the story's own intents (`intent "put" slot "v": …`), `state "a" `
// for a state's (`state "a" intent "loc": …`). unchecked skips those
// checks, for checkpoint_intents:, which upstream checks only once phase
// expansion merges them into a state (it loads a story declaring a bad
// one that no phase uses).
func (p *fileParser) parseIntents(n *yaml.Node, where string, owner *State, unchecked bool) (map[string]*Intent, []string) {
	out := map[string]*Intent{}
	order := yamlnode.MappingList(p.Walker, n, where, func(name string, k, v *yaml.Node) string {
		at := diag.IntentPlace(name)
		if owner != nil {
			at = diag.ArcPlace(owner.Path, name)
		}
		place := at.String()
		if unchecked {
			place = ""
		}
		defer p.within(at)()
		out[name] = p.parseIntent(name, k, v, where+"."+yamlnode.KeyText(name), place)
		return name
	})
	return out, order
}

// parseIntent parses one intent; place names it in synonym errors (""
// skips those checks).
func (p *fileParser) parseIntent(name string, k, v *yaml.Node, where, place string) *Intent {
	in := &Intent{Name: name, Pos: p.Pos(k), Slots: map[string]*Slot{}}
	p.Fields(v, where, yamlnode.Fields{
		{Key: "title", Str: &in.Title},
		{Key: "description", Str: &in.Description},
		{Key: "examples", List: &in.Examples},
		{Key: "priority", Int: &in.Priority},
		{Key: "hidden", Bool: &in.Hidden},
		{Key: "slots", Read: func(_, v *yaml.Node) {
			p.Mapping(v, where+".slots", nil, func(sn string, sk, sv *yaml.Node) {
				in.Slots[sn] = p.parseSlot(sn, sk, sv, where+".slots."+sn, place)
				in.SlotOrder = append(in.SlotOrder, sn)
			})
		}},
		{Key: "synonyms", Read: func(_, v *yaml.Node) {
			w := where + ".synonyms"
			p.Seq(v, w, func(i int, it *yaml.Node) {
				s := p.StrAt(it, w, i)
				if place != "" && strings.TrimSpace(s) == "" { // upstream trims before its check
					p.ErrAt(p.Pos(it), p.at, RuleIntent, "%s: synonyms[%d] is empty", place, i)
				}
				in.Synonyms = append(in.Synonyms, s)
			})
		}},
	})
	return in
}

// parseSlot parses one slot of the intent named place in synonym errors
// ("" skips those checks).
func (p *fileParser) parseSlot(name string, k, v *yaml.Node, where, intentPlace string) *Slot {
	sl := &Slot{Name: name, Pos: p.Pos(k)}
	var synNode *yaml.Node
	p.Fields(v, where, yamlnode.Fields{
		{Key: "type", Str: &sl.Type},
		{Key: "required", Bool: &sl.Required},
		{Key: "default", Raw: &sl.Default},
		{Key: "values", Read: func(_, v *yaml.Node) {
			if vs, ok := p.Raw(v).([]any); ok {
				sl.Values = vs
			}
		}},
		{Key: "description", Str: &sl.Description},
		{Key: "examples", Read: func(_, v *yaml.Node) {
			if vs, ok := p.Raw(v).([]any); ok {
				sl.Examples = vs
			}
		}},
		{Key: "format_hint", Str: &sl.FormatHint},
		{Key: "prompt", Str: &sl.Prompt},
		{Key: "validator", Str: &sl.Validator},
		{Key: "format", Str: &sl.Format},
		{Key: "synonyms", Read: func(_, v *yaml.Node) {
			synNode = v
			sl.Synonyms = map[string][]string{}
			p.Mapping(v, where+".synonyms", nil, func(ek string, _, ev *yaml.Node) {
				sl.Synonyms[ek] = p.StrList(ev, where+".synonyms."+ek)
			})
		}},
	})
	if synNode == nil || yamlnode.IsNull(synNode) || intentPlace == "" {
		return sl
	}
	place := intentPlace + " slot " + strconv.Quote(name)
	if sl.Type != "enum" {
		p.ErrAt(p.Pos(synNode), p.at, RuleIntent, "%s: synonyms: is only valid on enum slots (got type %q)", place, sl.Type)
		return sl
	}
	p.Mapping(synNode, where+".synonyms", nil, func(ek string, kk, ev *yaml.Node) {
		if !slices.ContainsFunc(sl.Values, func(val any) bool { return fmt.Sprint(val) == ek }) {
			p.ErrAt(p.Pos(kk), p.at, RuleIntent, "%s: synonyms key %q is not in values: %v", place, ek, sl.Values)
		}
		for i, s := range sl.Synonyms[ek] {
			if strings.TrimSpace(s) == "" { // upstream trims before its check
				p.ErrAt(p.Pos(ev), p.at, RuleIntent, "%s: synonyms[%q][%d] is empty", place, ek, i)
			}
		}
	})
	return sl
}
