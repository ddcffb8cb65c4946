package main

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// editSlot edits an intent's slots: toggles required, changes a type (an
// enum gets values), adds or drops a default, an enum value or a
// validator, adds a slot or removes one. The fixtures keep sending what
// they sent, so the slot checks meet values of every kind.
func (g *gen) editSlot(sn *storyNodes) string {
	if len(sn.decls) == 0 {
		return ""
	}
	d := sn.decls[g.rnd.IntN(len(sn.decls))]
	slots := mapGet(d, "slots")
	if slots == nil || slots.Kind != yaml.MappingNode {
		slots = node("{}")
		mapSet(d, "slots", slots)
	}
	names := mapKeys(slots)
	if len(names) == 0 || g.chance(15) {
		name := []string{"note", "n", "mode", "v", "target", "reason"}[g.rnd.IntN(6)]
		decl := node("{}")
		if t := slotTypes[g.rnd.IntN(len(slotTypes))]; t != "" {
			mapSet(decl, "type", str(t))
		}
		if g.chance(50) {
			mapSet(decl, "required", node("true"))
		}
		mapSet(slots, name, decl)
		sn.touch()
		return fmt.Sprintf("slot %s added: %s", name, short(decl))
	}
	name := names[g.rnd.IntN(len(names))]
	decl := mapGet(slots, name)
	if decl == nil || decl.Kind != yaml.MappingNode {
		decl = node("{}")
		mapSet(slots, name, decl)
	}
	var msg string
	switch g.rnd.IntN(7) {
	case 0:
		req := sval(mapGet(decl, "required")) != "true"
		mapSet(decl, "required", node(fmt.Sprint(req)))
		msg = fmt.Sprintf("required: %v", req)
	case 1:
		t := slotTypes[g.rnd.IntN(len(slotTypes))]
		if t == "" {
			mapDel(decl, "type")
		} else {
			mapSet(decl, "type", str(t))
		}
		if t == "enum" && mapGet(decl, "values") == nil {
			mapSet(decl, "values", node(`[a, b, "yes", 1]`))
		}
		msg = "type: " + t
	case 2:
		v := g.valueNode(sn)
		mapSet(decl, "default", v)
		msg = "default: " + short(v)
	case 3:
		mapDel(decl, "default")
		msg = "default removed"
	case 4:
		vals := mapGet(decl, "values")
		if vals == nil || vals.Kind != yaml.SequenceNode {
			vals = node("[]")
			mapSet(decl, "values", vals)
		}
		v := []string{"x", "yes", "1", "2.5", `""`, "null"}[g.rnd.IntN(6)]
		vals.Content = append(vals.Content, node(v))
		msg = "values += " + v
	case 5:
		v := []string{"slots.%s != ''", "len(string(slots.%s)) > 1", "slots.%s > 2", "slots.%s == nil"}[g.rnd.IntN(4)]
		mapSet(decl, "validator", str(fmt.Sprintf(v, name)))
		msg = "validator: " + fmt.Sprintf(v, name)
	default:
		mapDel(slots, name)
		sn.touch()
		return "slot " + name + " removed"
	}
	sn.touch()
	return fmt.Sprintf("slot %s %s", name, msg)
}
