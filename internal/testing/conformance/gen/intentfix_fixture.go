package main

import (
	"fmt"
	"slices"
	"strings"
)

// ifxEntry is one recording entry as the fixtures know it.
type ifxEntry struct {
	state, input, intent string
	slots                m // nil: no slots: key
	clarify              bool
}

func (e ifxEntry) yaml() m {
	out := m{"state": e.state, "input": e.input, "confidence": 1.0, "majority_of": 1}
	if e.clarify {
		out["clarify"] = true
		return out
	}
	in := m{"name": e.intent}
	if e.slots != nil {
		in["slots"] = e.slots
	}
	out["intent"] = in
	return out
}

// ifxCodes are the expect_failure codes drawn: every validation code,
// clarify, and names no validation gives.
var ifxCodes = []string{"UNKNOWN_INTENT", "INTENT_NOT_ALLOWED_IN_STATE", "MISSING_SLOTS", "INVALID_SLOT_VALUE",
	"GUARD_FAILED", "clarify", "NO_SUCH_CODE", "unknown_intent"}

// intentFixFiles draws the recording, the fixture files and the flags.
func (g *gen) intentFixFiles(mo *ifxModel) []agentFile {
	// the states the fixtures are about: resting leaves mostly, a
	// compound, a state the story does not have
	var picked []*ifxState
	for range 1 + g.rnd.IntN(3) {
		s := mo.states[g.rnd.IntN(len(mo.states))]
		if g.chance(6) {
			s = &ifxState{path: g.pick("nowhere", "kid", "kid.k1", "A", "c.", "c.zz", "p.ra.zz", ".c", "a.")}
		}
		if !slices.ContainsFunc(picked, func(p *ifxState) bool { return p.path == s.path }) {
			picked = append(picked, s)
		}
	}
	var entries []ifxEntry
	byState := map[string][]ifxEntry{}
	for _, s := range picked {
		for k := range 2 + g.rnd.IntN(5) {
			e := g.ifxEntry(mo, s, k)
			byState[s.path] = append(byState[s.path], e)
		}
		entries = append(entries, byState[s.path]...)
	}
	// the same key twice (the first wins), and entries spelled with other
	// case and spaces than the fixtures' inputs
	if len(entries) > 0 && g.chance(30) {
		e := entries[g.rnd.IntN(len(entries))]
		e2 := g.ifxEntry(mo, &ifxState{path: e.state}, 99)
		e2.input = g.ifxVariant(e.input)
		entries = append(entries, e2)
	}
	for i := range entries {
		if g.chance(10) {
			entries[i].input = g.ifxVariant(entries[i].input)
		}
		if g.chance(3) {
			entries[i].state = strings.ToUpper(entries[i].state)
		}
		if entries[i].slots != nil && g.chance(8) {
			entries[i].slots["when"] = []any{plain("2026-01-02"), plain("1e3"), plain("08"), plain("0x1F"), nil}[g.rnd.IntN(5)]
		}
	}
	rec := m{"kind": "recording", "app_id": "x", "app_version": "0.1.0", "min_confidence": 1.0}
	recEntries := []any{}
	for _, e := range entries {
		recEntries = append(recEntries, e.yaml())
	}
	if g.chance(4) {
		// a clarify entry: upstream's static harness refuses the recording
		recEntries = append(recEntries, ifxEntry{state: picked[0].path, input: "hmm", clarify: true}.yaml())
	}
	for _, e := range recEntries {
		if g.chance(4) && e.(m)["intent"] != nil {
			e.(m)["clarify"] = true // beside a name: read as the name
		}
	}
	if g.chance(3) {
		recEntries = []any{} // every input misses
	}
	rec["entries"] = recEntries

	var files []agentFile
	var args []string
	recName := "recording.yaml"
	if g.chance(15) {
		recName = "rec2.yaml"
		args = append(args, "--recording", recName)
		if g.chance(50) { // a decoy where the default would look
			files = append(files, agentFile{"recording.yaml", m{"kind": "recording", "entries": []any{ifxEntry{state: picked[0].path, input: "decoy", intent: "go"}.yaml()}}})
		}
	}
	files = append(files, agentFile{recName, rec})

	// fixture documents, one to three per file, one or two files
	fxDir := "intents"
	if g.chance(12) {
		fxDir = "fx"
		args = append(args, "--intents", "fx/*.yaml")
	} else if g.chance(8) {
		args = append(args, "--intents", "intents/a*.yaml")
	}
	var keys []string // state::id of every fixture drawn
	malformed := g.chance(12)
	nfiles := 1 + g.rnd.IntN(2)
	for fi := range nfiles {
		var docs []m
		for range 1 + g.rnd.IntN(3) {
			s := picked[g.rnd.IntN(len(picked))]
			doc := g.ifxDoc(s, byState[s.path], &keys)
			docs = append(docs, doc)
		}
		if g.chance(8) {
			docs = append(docs, m{"test_kind": "flows", "name": "not mine", "turns": []any{}})
		}
		name := fmt.Sprintf("%s/%c.yaml", fxDir, 'a'+fi)
		var body any = docs
		if malformed && fi == nfiles-1 {
			body = g.ifxMalformed(docs)
		}
		files = append(files, agentFile{name, body})
	}
	if g.chance(6) {
		files = append(files, agentFile{fxDir + "/z.yml", []m{{"test_kind": "intents", "state": picked[0].path, "fixtures": []any{m{"id": "yml", "inputs": []any{"x"}}}}}})
	}

	if g.chance(15) {
		args = append(args, "--only", g.pick(picked[g.rnd.IntN(len(picked))].path, "nowhere"))
	}
	if g.chance(15) {
		args = append(args, "--runs", g.pick("1", "2", "3", "0"))
	}
	if g.chance(20) {
		base := m{"generated_at": "2026-01-01T00:00:00Z", "app_id": "x", "app_version": "0.1.0"}
		fx := m{}
		for _, k := range keys {
			if g.chance(70) {
				fx[k] = []any{1.0, 0.5, 0.95, 0.0, 0.8}[g.rnd.IntN(5)]
			}
		}
		base["fixtures"] = fx
		if g.chance(85) {
			files = append(files, agentFile{"baseline.json", mustJSON(base)})
		}
		args = append(args, "--baseline", "@BASE@")
		if g.chance(35) {
			args = append(args, "--update-baseline")
		}
		if g.chance(50) {
			args = append(args, "--fail-regression-at", g.pick("0", "0.1", "0.5", "0.05"))
		}
	}
	if len(args) > 0 {
		files = append(files, agentFile{"args", strings.Join(args, "\n") + "\n"})
	}
	return files
}

// ifxVariant respells an input with other case and spaces.
func (g *gen) ifxVariant(s string) string {
	switch g.rnd.IntN(4) {
	case 0:
		return strings.ToUpper(s)
	case 1:
		return "  " + s + " "
	case 2:
		return strings.ToUpper(s[:1]) + s[1:] + "\t"
	}
	return strings.ReplaceAll(s, " ", "  ")
}

// ifxEntry draws one recording entry for state s: an intent it handles
// with slots of every kind, or one it does not handle, or an unknown one.
func (g *gen) ifxEntry(mo *ifxModel, s *ifxState, k int) ifxEntry {
	e := ifxEntry{state: s.path}
	switch r := g.rnd.IntN(100); {
	case r < 82 && len(s.allowed) > 0:
		e.intent = s.allowed[g.rnd.IntN(len(s.allowed))]
	case r < 90 && len(mo.declared) > 0:
		e.intent = mo.declared[g.rnd.IntN(len(mo.declared))]
	case r < 94 && mo.meta:
		e.intent = "meta"
	case r < 96 && mo.kid:
		e.intent = g.pick("kid__poke", "kid__quit", "poke")
	default:
		e.intent = g.pick("zap", "dance", "Go", "")
		if e.intent == "" {
			e.intent = "nope"
		}
	}
	e.input = fmt.Sprintf("%s %s %d", g.pick("do", "try", "please"), e.intent, k)
	e.slots = g.ifxSlots(s.decls[e.intent])
	return e
}

// ifxSlots draws the slots of an answer for declaration d: valid values
// mostly, and sometimes a required one left out, a wrong type, a value
// not in values:, null, an undeclared slot, or no slots: key at all.
func (g *gen) ifxSlots(d m) m {
	if g.chance(10) {
		return nil
	}
	out := m{}
	decls, _ := d["slots"].(m)
	for _, name := range sortedKeys(decls) {
		sd, _ := decls[name].(m)
		req, _ := sd["required"].(bool)
		if !req && g.chance(40) {
			continue
		}
		if req && g.chance(5) {
			continue // missing
		}
		out[name] = g.ifxSlotValue(sd)
	}
	if g.chance(10) {
		out["extra"] = g.pick("x", "1")
	}
	return out
}

// ifxSlotValue draws a value for one slot declaration.
func (g *gen) ifxSlotValue(sd m) any {
	if g.chance(6) {
		// wrong on purpose, whatever the type
		return []any{plain("many"), plain("3"), plain("2.5"), plain("true"), plain("null"), quoted("7"), []any{"a"}, m{"k": "v"}, quoted("")}[g.rnd.IntN(9)]
	}
	if vs, ok := sd["values"].([]any); ok && len(vs) > 0 {
		if g.chance(6) {
			return g.pick("purple", "red", "RED", "Red")
		}
		return vs[g.rnd.IntN(len(vs))]
	}
	typ, _ := sd["type"].(string)
	switch typ {
	case "int":
		return []any{plain("3"), plain("0"), plain("-2"), plain("0x10"), plain("3.0")}[g.rnd.IntN(5)]
	case "number":
		return []any{plain("2.5"), plain("3"), plain("1e3"), plain("-0.5")}[g.rnd.IntN(4)]
	case "bool":
		return []any{plain("true"), plain("false"), plain("yes")}[g.rnd.IntN(3)]
	case "list[string]":
		return []any{[]any{"a", "b"}, []any{}, []any{plain("1")}}[g.rnd.IntN(3)]
	case "money":
		return []any{plain("12.50"), quoted("$3"), plain("4")}[g.rnd.IntN(3)]
	case "date":
		return []any{quoted("2026-01-02"), plain("2026-01-02"), "tomorrow"}[g.rnd.IntN(3)]
	}
	return []any{"x", "hello world", plain("3"), quoted("3"), "ok"}[g.rnd.IntN(5)]
}

// ifxDoc draws one intents document for state s from its entries.
func (g *gen) ifxDoc(s *ifxState, entries []ifxEntry, keys *[]string) m {
	doc := m{"test_kind": "intents", "app": "x", "state": s.path}
	if g.chance(50) {
		def := m{}
		if g.chance(60) {
			def["runs"] = 1 + g.rnd.IntN(3)
		}
		if g.chance(60) {
			def["min_pass_rate"] = g.ifxRate()
		}
		if g.chance(40) {
			def["temperature"] = 0.2
		}
		doc["defaults"] = def
	}
	var fxs []any
	for i := range 1 + g.rnd.IntN(4) {
		id := fmt.Sprintf("f%d-%s", i, g.pick("go", "fail", "fall", "any"))
		if g.chance(5) && i > 0 {
			id = "f0-go" // an id used twice
		}
		fx := g.ifxFixture(s, entries, id)
		*keys = append(*keys, s.path+"::"+id)
		fxs = append(fxs, fx)
	}
	doc["fixtures"] = fxs
	return doc
}

// ifxRate is a min_pass_rate: 0, 1, more than 1, fractions.
func (g *gen) ifxRate() any {
	if g.chance(15) { // above 1: passes only when every input is skipped
		return []any{1.5, 2}[g.rnd.IntN(2)]
	}
	return []any{0, 1, 0.5, 0.9, plain("0.75"), 0.34, quoted("0.5"), plain("1e0"), quoted("1"), 0.25}[g.rnd.IntN(10)]
}

// ifxInputs picks the inputs of a fixture: entries' inputs (as written,
// or respelled), and misses.
func (g *gen) ifxInputs(pool []ifxEntry) []any {
	var out []any
	for _, e := range pool {
		in := strings.TrimSpace(strings.ToLower(e.input))
		if g.chance(25) {
			in = g.ifxVariant(in)
		}
		out = append(out, in)
	}
	if len(out) == 0 || g.chance(20) {
		out = append(out, g.pick("no such phrase", "xyzzy", "do go 77"))
	}
	return out
}

// ifxFixture draws one fixture: positive, expect_failure,
// expect_fallthrough, or none of those.
func (g *gen) ifxFixture(s *ifxState, entries []ifxEntry, id string) m {
	fx := m{"id": id}
	switch r := g.rnd.IntN(100); {
	case r < 55 && len(entries) > 0:
		e := entries[g.rnd.IntN(len(entries))]
		var same []ifxEntry
		for _, o := range entries {
			if o.intent == e.intent && (g.chance(90) || o.input == e.input) {
				same = append(same, o)
			} else if g.chance(4) {
				same = append(same, o)
			}
		}
		want := m{}
		for _, k := range sortedKeys(e.slots) {
			if g.chance(70) {
				want[k] = e.slots[k]
			}
		}
		if g.chance(4) {
			want["direction"] = "north" // a slot the answer does not carry
		}
		switch g.rnd.IntN(20) {
		case 0, 1:
			fx["intent"] = m{"name": e.intent}
			fx["slots"] = want
		case 2, 3:
			fx["intent"] = m{"name": e.intent, "slots": want}
			fx["slots"] = m{"other": "x"}
		case 4:
			fx["intent"] = m{"slots": want} // no name
		default:
			fx["intent"] = m{"name": e.intent, "slots": want}
		}
		fx["inputs"] = g.ifxInputs(same)
	case r < 80:
		var codes []any
		for range 1 + g.rnd.IntN(3) {
			codes = append(codes, g.pick(ifxCodes...))
		}
		if g.chance(40) {
			codes = append(codes, "clarify") // any refusal passes
		}
		switch {
		case g.chance(5):
			fx["expect_failure"] = m{"any_of": []any{}}
		case g.chance(5):
			fx["expect_failure"] = m{}
		default:
			fx["expect_failure"] = m{"any_of": codes}
		}
		fx["inputs"] = g.ifxInputs(g.ifxSome(ifxWhere(entries, s, false)))
	case r < 92:
		fx["expect_fallthrough"] = true
		fx["inputs"] = g.ifxInputs(g.ifxSome(ifxWhere(entries, s, true)))
	default:
		fx["inputs"] = g.ifxInputs(g.ifxSome(ifxWhere(entries, s, true)))
	}
	if g.chance(30) {
		fx["runs"] = []any{1, 2, 3, 0, quoted("2"), plain("2.5"), -1}[g.rnd.IntN(7)]
	}
	if g.chance(5) {
		delete(fx, "inputs")
	} else if g.chance(5) {
		fx["inputs"] = append(asList(fx["inputs"]), nil, plain("0x1F"), plain("1.50"), true)
	}
	if g.chance(35) {
		fx["min_pass_rate"] = g.ifxRate()
	}
	return fx
}

// ifxSome is a random part of entries.
func (g *gen) ifxSome(entries []ifxEntry) []ifxEntry {
	var out []ifxEntry
	for _, e := range entries {
		if g.chance(50) {
			out = append(out, e)
		}
	}
	return out
}

// ifxMalformed spoils the documents of one file in one way: an unknown
// key, a value of the wrong type, a missing id or state, a broken YAML
// line, a document that is not a mapping.
func (g *gen) ifxMalformed(docs []m) any {
	d := docs[g.rnd.IntN(len(docs))]
	if d["test_kind"] != "intents" {
		d = docs[0] // the flows document is only ever appended
	}
	fxs, _ := d["fixtures"].([]any)
	fx, _ := fxs[0].(m)
	switch g.rnd.IntN(12) {
	case 0:
		d["fixturez"] = []any{}
	case 1:
		fx["inputz"] = []any{"x"}
	case 2:
		fx["runs"] = "three"
	case 3:
		fx["min_pass_rate"] = quoted("0.5")
	case 4:
		fx["inputs"] = "just one"
	case 5:
		delete(fx, "id")
	case 6:
		delete(d, "state")
	case 7:
		fx["intent"] = "go"
	case 8:
		fx["expect_failure"] = []any{"UNKNOWN_INTENT"}
	case 9:
		fx["expect_failure"] = m{"any_of": "UNKNOWN_INTENT"}
	case 10:
		d["defaults"] = m{"runs": "2"}
	default:
		var b strings.Builder
		for _, x := range docs {
			b.WriteString(mustYAML(x) + "---\n")
		}
		return b.String() + g.pick("test_kind: intents\nstate: [a\n", "- just\n- a list\n", "test_kind: intents\nfixtures: {id: x}\n")
	}
	return docs
}

// ifxWhere is the entries whose intent the state handles (allowed) or does
// not, all of them when none is: fixtures are drawn mostly to pass.
func ifxWhere(entries []ifxEntry, s *ifxState, allowed bool) []ifxEntry {
	var out []ifxEntry
	for _, e := range entries {
		if slices.Contains(s.allowed, e.intent) == allowed {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return entries
	}
	return out
}
