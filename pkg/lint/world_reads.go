package lint

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// worldKeyCheck collects the world.K reads of one story for checkWorldKeys;
// only a source that compiles is read (a broken one is its own rule's).
type worldKeyCheck struct {
	c     *checker
	reads []worldRead
	keys  map[compileKey][]string // memoised per source and syntax
	// pc holds the story's template loaders (made lazily); seen is the
	// template files whose reads are listed, each once
	pc   *pongoCheck
	seen map[string]bool
	// at is the path of the state whose reads are being listed ("" for
	// the story's own and an import's), each read's state
	at string
	// texts, when set, is handed every template source the reads are
	// listed from (file: a template file's whole text, placed in it),
	// world read or not; checker.worldKeys keeps them in sources for rule
	// sorted-string
	texts   func(src string, p story.Pos, file bool, where func() string)
	sources []listedText
}

// listedText is a template source the world reads are listed from, as
// worldKeyCheck.texts is handed it.
type listedText struct {
	src   string
	p     story.Pos
	file  bool
	where func() string
}

// worldKeys is the story's world reads and the template texts they are
// listed from, collected once per checker: rules world-key and
// sorted-string read the same texts, files included.
func (c *checker) worldKeys() *worldKeyCheck {
	if c.worldReads == nil {
		wk := &worldKeyCheck{c: c}
		wk.texts = func(src string, p story.Pos, file bool, where func() string) {
			wk.sources = append(wk.sources, listedText{src: src, p: p, file: file, where: where})
		}
		wk.collect()
		c.worldReads = wk
	}
	return c.worldReads
}

// collect lists the reads of the story's own scalars and the template
// files they name; phase templates and phases: are left out (their
// placeholders are not substituted yet). On the phases: expansion
// (c.expanded) it lists only the reads of the states it generates, the
// phase templates' with their placeholders substituted.
func (wk *worldKeyCheck) collect() {
	c := wk.c
	wk.keys = map[compileKey][]string{}
	wk.pc = &pongoCheck{c: c}
	wk.seen = map[string]bool{}
	if ctx := c.st.App.Context; ctx != "" && !c.expanded {
		wk.pongo(compiledPongo, ctx, c.st.App.Pos, func() string { return "app.context" })
	}
	if d := c.st.Decider; d != nil && d.Prompt != "" && !c.expanded && !c.st.Imported() {
		// rendered with the world at the resting gate (pkg/engine deciderCall)
		wk.pongo(compiledPongo, d.Prompt, keyValuePos(c, d.Pos, "prompt"), func() string { return "decider prompt" })
	}
	c.eachTransition(func(s *story.State, in string, a int, t *story.Transition) {
		if !wk.keep(s) {
			return
		}
		wk.at = s.Path
		where := func() string {
			return "state " + strconv.Quote(s.Path) + " intent " + strconv.Quote(in) + " arm " + strconv.Itoa(a)
		}
		wk.guard(t.When, t.WhenPos(), func() string { return where() + " when" })
		if story.IsTemplated(t.Target) {
			wk.pongo(compiledPongoInline, t.Target, t.TargetPos(), func() string { return where() + " target" })
		}
	})
	for _, s := range c.states() {
		if wk.keep(s) {
			wk.at = s.Path
			wk.state(s)
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template || c.expanded && (site.State == nil || !wk.keep(site.State)) {
			return
		}
		wk.at = ""
		if site.State != nil {
			wk.at = site.State.Path
		}
		wk.effect(e, site)
	})
	wk.at = ""
	if c.expanded {
		wk.files()
		return
	}
	for _, n := range c.st.IntentOrder {
		for _, sn := range c.st.Intents[n].SlotOrder {
			if sl := c.st.Intents[n].Slots[sn]; sl.Validator != "" {
				wk.read(compiledExpr, sl.Validator, sl.Pos, func() string { return "intent " + strconv.Quote(n) + " slot " + strconv.Quote(sn) + " validator" })
			}
		}
	}
	wk.overrides()
	for _, alias := range c.st.ImportOrder {
		im := c.st.Imports[alias]
		for _, kv := range im.WorldIn {
			wk.rawValue(kv.Value, kv.Pos, func() string { return "imports." + alias + " world_in." + kv.Key })
		}
		for _, en := range sortedMapKeys(im.Exits) {
			for _, kv := range im.Exits[en].Set {
				wk.rawValue(kv.Value, kv.Pos, func() string { return "imports." + alias + " exits." + en + ".set." + kv.Key })
			}
		}
	}
	wk.files()
}

// overrides lists the reads of the states the importer's overrides:
// give this story (written in the importer's file, they replace the
// child's states and run in its scope, so they are judged here), each
// named after its import.
func (wk *worldKeyCheck) overrides() {
	imp := wk.c.st.Importer()
	if imp == nil {
		return
	}
	var w story.EffectWalk
	for _, alias := range wk.c.src.overriddenAs(imp, wk.c.st) {
		im := imp.Imports[alias]
		mark := len(wk.reads)
		for _, name := range im.Overrides.StateNames() {
			o, _ := im.Overrides.ParseState(name)
			if o == nil {
				continue // rule imports reports it
			}
			states := story.Flatten([]*story.State{o})
			for _, s := range states {
				wk.state(s)
				for _, on := range s.On {
					for a, t := range on.Arms {
						wk.guard(t.When, t.WhenPos(), func() string {
							return "state " + strconv.Quote(s.Path) + " intent " + strconv.Quote(on.Intent) + " arm " + strconv.Itoa(a) + " when"
						})
					}
				}
			}
			for p := range w.States(states...) {
				wk.effect(p.Effect, effSite{EffectPlace: p, OnComplete: p.Within("on_complete"), Inline: p.Within("effects")})
			}
		}
		for i := mark; i < len(wk.reads); i++ {
			where := wk.reads[i].where
			wk.reads[i].where = func() string { return "imports." + alias + " overrides: " + where() }
		}
	}
}

// keep reports whether s's reads are listed: every state's, but on the
// phases: expansion only those of a state it generates.
func (wk *worldKeyCheck) keep(s *story.State) bool {
	if !wk.c.expanded {
		return true
	}
	for s.Parent != nil {
		s = s.Parent
	}
	_, ok := wk.c.generated[s.Name]
	return ok
}

// rawValue records the reads of every {{ }} string in a raw value tree.
func (wk *worldKeyCheck) rawValue(v any, p story.Pos, where func() string) {
	walkStrings(v, "", func(_, s string) { wk.value(s, p, where) })
}

// state lists the reads of a state's templated initial:, footer, timeout
// target and views.
func (wk *worldKeyCheck) state(s *story.State) {
	name := "state " + strconv.Quote(s.Path)
	if story.IsTemplated(s.Initial()) {
		wk.pongo(compiledPongoInline, s.Initial(), s.InitialPos(), func() string { return name + " initial" })
	}
	if f := s.Footer(); f != "" {
		wk.pongo(compiledPongo, f, s.PosOf("footer"), func() string { return name + " footer" })
	}
	if to := s.Timeout(); to != nil && story.IsTemplated(to.Target) {
		wk.pongo(compiledPongoInline, to.Target, to.TargetPos, func() string { return name + " timeout target" })
	}
	eachView(s, func(v *story.View, _ elemPlace) {
		if v.Kind == "template" {
			wk.pongo(compiledPongoView, v.Template, v.Pos, func() string { return name + " view" })
		}
	})
	wk.c.eachViewElement(s, func(el *story.ViewElement, at elemPlace) {
		where := func() string { return name + " " + at.String() }
		wk.guard(el.When, el.WhenPos, func() string { return where() + " when" })
		if el.Text != "" {
			wk.pongo(compiledPongoView, el.Text, or(el.TextPos, el.Pos), where)
		}
		walkStrings(el.Body, "", func(path, str string) {
			p := or(el.StringPos(str), el.Pos)
			switch path[strings.LastIndexByte(path, '.')+1:] {
			case "when":
				wk.guard(str, p, func() string { return where() + " " + strings.TrimPrefix(path, ".") })
			case "expr":
				wk.read(compiledExpr, str, p, func() string { return where() + " " + strings.TrimPrefix(path, ".") })
			default:
				wk.pongo(compiledPongoView, str, p, where)
			}
		})
	})
}

// effect lists the reads of one effect's guard, values, say: and target.
func (wk *worldKeyCheck) effect(e *story.Effect, site effSite) {
	wk.guard(e.When, e.PosOf("when"), func() string { return site.String() + " when" })
	eachValueString(e, func(p story.Pos, what, _, path, v string) {
		if what == "with" {
			p = e.WithPos(path)
		}
		wk.value(v, p, func() string { return site.String() + " " + what + " " + path })
	})
	for _, kv := range e.Increment() {
		if v, ok := kv.Value.(string); ok {
			wk.value(v, kv.Pos, func() string { return site.String() + " increment " + kv.Key })
		}
	}
	for _, kv := range e.Bind() {
		if v, ok := kv.Value.(string); ok && expr.IsTemplate(v) {
			wk.value(v, kv.Pos, func() string { return site.String() + " bind " + kv.Key })
		}
	}
	for _, kv := range [][2]string{{"emit_intent", e.EmitIntent()}, {"id", e.ID()}} {
		if expr.IsTemplate(kv[1]) {
			wk.value(kv[1], e.PosOf(kv[0]), func() string { return site.String() + " " + kv[0] })
		}
	}
	if e.Invoke == "host.starlark.run" {
		wk.starlarkReads(e)
	}
	if e.Say != "" {
		wk.pongo(compiledPongoInline, e.Say, e.PosOf("say"), func() string { return site.String() + " say" })
	}
	if story.IsTemplated(e.Target()) {
		wk.pongo(compiledPongoInline, e.Target(), e.PosOf("target"), func() string { return site.String() + " target" })
	}
}

func (wk *worldKeyCheck) guard(src string, p story.Pos, where func() string) {
	if src != "" {
		wk.read(compiledGuard, src, p, where)
	}
}

// value records the reads of a {{ }} value; one kitsoki's template engine
// refuses is read as pongo2 (a host may render it so).
func (wk *worldKeyCheck) value(src string, p story.Pos, where func() string) {
	if !strings.Contains(src, "{") || !strings.Contains(src, "world") {
		wk.text(src, p, where)
		return
	}
	if _, ok := wk.sourceKeys(compiledTemplate, src); ok {
		wk.text(src, p, where)
		wk.read(compiledTemplate, src, p, where)
		return
	}
	wk.pongo(compiledPongo, src, p, where)
}

// pongo records the reads of a pongo2 template held in the story and of
// the files it includes, compiled as kind says: with the story's loader
// (compiledPongo: context:, a decider's prompt, footer:), the story
// directory's (compiledPongoInline: say:, a templated target, initial:) or
// the views' (compiledPongoView: views/ only, as both engines render views).
func (wk *worldKeyCheck) pongo(kind compileKind, src string, p story.Pos, where func() string) {
	wk.text(src, p, where)
	if strings.Contains(src, "{") {
		wk.read(kind, src, p, where)
		wk.includes(kind, src, p, where)
	}
}

// text hands a source with a {% %} tag held in the story to wk.texts.
func (wk *worldKeyCheck) text(src string, p story.Pos, where func() string) {
	if wk.texts != nil && strings.Contains(src, "{%") {
		wk.texts(src, p, false, where)
	}
}

func (wk *worldKeyCheck) read(kind compileKind, src string, p story.Pos, where func() string) {
	if !strings.Contains(src, "world") {
		return
	}
	keys, _ := wk.sourceKeys(kind, src)
	if len(keys) == 0 {
		return
	}
	var reads []tplRead // the spellings the fold keeps, when src may hold one
	switch {
	case !strings.Contains(src, "world[") && !strings.Contains(src, "world?"):
	case kind == compiledGuard || kind == compiledExpr:
		reads = innerReads(nil, src, 0, "")
	default:
		reads = tagReads(src, true)
	}
	for _, k := range keys {
		r := worldRead{key: k, src: src, pos: p, where: where, state: wk.at}
		r.kept, r.keptOff = keptSpelling(src, reads, k)
		wk.reads = append(wk.reads, r)
	}
}

// dotted is src with each of reads' world["k"] and world['k'] (k a name)
// spelt world.k.
func dotted(src string, reads []tplRead) string {
	var b strings.Builder
	last := 0
	for _, r := range reads {
		at := r.off + len("world")
		if r.root != "world" || r.dotted || !strings.HasPrefix(src[at:], "[") || !isName(r.key) {
			continue
		}
		_, n := memberAfter(src[at:])
		b.WriteString(src[last:at])
		b.WriteString("." + r.key)
		last = at + n
	}
	if last == 0 {
		return src
	}
	return b.String() + src[last:]
}

// isName: k is an identifier (a key world.k can name).
func isName(k string) bool {
	if k == "" || k[0] >= '0' && k[0] <= '9' {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !identByte(k[i]) || k[i] >= 0x80 {
			return false
		}
	}
	return true
}

// keptSpelling is the first of reads (src's) that reads world key k in a
// spelling the import fold leaves as written (world["k"], world['k'],
// world?.k: it renames only world.k), with the byte offset of its key;
// "" and -1 when there is none.
func keptSpelling(src string, reads []tplRead, k string) (string, int) {
	for _, r := range reads {
		if r.root != "world" || r.key != k || r.dotted {
			continue
		}
		at := r.off + len("world")
		if _, n := memberAfter(src[at:]); n > 0 {
			return src[r.off : at+n], at + strings.Index(src[at:at+n], k)
		}
	}
	return "", -1
}

// pongoWorldKeys is expr.PongoWorldKeys with the keys its tags read as
// world["k"] or world['k'] (pongo2 reads them as world.k), once each, in
// order. Such a read in a block tag ({% if world["k"] %}), which
// expr.PongoWorldKeys refuses as it might bind world, is read as world.k.
func pongoWorldKeys(src string) ([]string, bool) {
	if !strings.Contains(src, "world[") {
		return expr.PongoWorldKeys(src)
	}
	reads := tagReads(src, true)
	keys, ok := expr.PongoWorldKeys(dotted(src, reads))
	if !ok {
		return nil, false
	}
	for _, r := range reads {
		if r.root == "world" && !r.dotted && !slices.Contains(keys, r.key) {
			keys = append(keys, r.key)
		}
	}
	return keys, true
}

// sourceKeys returns the world keys src reads by name in syntax kind, and
// whether it compiles there (memoised).
func (wk *worldKeyCheck) sourceKeys(kind compileKind, src string) ([]string, bool) {
	k := compileKey{kind, src}
	if keys, ok := wk.keys[k]; ok {
		return keys, keys != nil
	}
	var keys []string
	ok := false
	switch kind {
	case compiledGuard, compiledExpr, compiledTemplate:
		compile := map[compileKind]func(string) error{compiledGuard: wk.c.compileGuard, compiledExpr: wk.c.compileExpr, compiledTemplate: wk.c.compileTemplate}[kind]
		if err := compile(src); err == nil && wk.c.built[k] != nil {
			keys, ok = wk.c.built[k].WorldKeys(), true
		}
	case compiledPongo, compiledPongoView, compiledPongoInline:
		// the loader rule pongo compiles src with, so an include resolves
		ld := wk.loader(kind)
		if err := wk.c.compiled(kind, src, func(s string) error { _, err := ld.Compile(s); return err }); err == nil {
			keys, ok = pongoWorldKeys(src)
		}
	}
	if ok && keys == nil {
		keys = []string{}
	}
	wk.keys[k] = keys
	return keys, ok
}

// keyValuePos is the position of the value of key in the mapping at p
// (its first `key:` from p on, within a few lines), p when not found: for
// a value the model keeps no position of.
func keyValuePos(c *checker, p story.Pos, key string) story.Pos {
	lines, ok := c.src.sourceLines(p.File)
	if !ok || p.Line < 1 {
		return p
	}
	for ln := p.Line; ln <= len(lines) && ln < p.Line+20; ln++ {
		text, from := lines[ln-1], 0
		if ln == p.Line {
			from = min(max(p.Col-1, 0), len(text))
		}
		if k := wholeRef(text[from:], "", key+":", ""); k >= 0 {
			v := from + k + len(key) + 1
			v += len(text[v:]) - len(strings.TrimLeft(text[v:], " "))
			return story.Pos{File: p.File, Line: ln, Col: utf8.RuneCountInString(text[:v]) + 1}
		}
	}
	return p
}
