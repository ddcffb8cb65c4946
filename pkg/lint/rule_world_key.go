package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleWorldKey = &Rule{ID: "world-key", Severity: diag.Warning, LintOnly: true,
	Summary: "a world.K read (a guard, a {{ }} value, a pongo2 view, say:, footer:, target or initial:, a views/ layout or template_file:, an agent call's prompt file, the decider's prompt, a file any of these includes, extends or imports by a literal name (placed in that file, naming what includes it), a host.starlark.run script's ctx.world.get(\"K\") or get(key = \"K\") with no default, ctx followed into the helpers and load()ed modules it is handed to and through w = ctx.world) of a key nothing gives a value: not declared under world: (the story's, an importer's, a lifted <alias>__K), not written anywhere in the import tree (set:, increment:, bind:, world_in:, an import exit's set: or overrides: states, the phases: expansion included), not injected by the engine (last_error, host_error, write_mode_scope, session_id, ide, turn_cost_usd, session_cost_usd, last_job_id, last_job_status, last_job_result, $inbox) and not given by the story's flow fixtures (initial_world: or world_override: of flows/*.yaml): both engines read it as nil. So does a read the import fold renames away or leaves behind: a child's declared k is <alias>__k in the folded world, so its importer's or a sibling's world.k reaches another key, and the fold rewrites only the world.k spelling, so the child's own world[\"k\"], world['k'] or world?.k, and the k its template files and Starlark scripts read, reach the bare k (the message names the child, the folded key and the fix); when an importer declares k too, they read the importer's value where the child probably meant its own (warned the same way). An import's overrides: states are read in the child's scope, where they run. A phase template's reads are checked on its expansion, by name, once per place. Not checked: world[x], a file included by a computed name or with only or world=, a template that binds the name world, a story that writes a key named by a {{ }} template or whose import tree holds a child not loaded here (an @kitsoki/ library story), and a story declaring exits: loaded on its own (it is checked as its importers' child)",
	Example: "world: {count: {type: int, default: 0}}\n... when: \"world.coutn > 3\""}

// worldRead is one world.K read: the key, its scalar and where that is.
type worldRead struct {
	key   string
	src   string
	pos   story.Pos
	where func() string
	from  readFrom
	// state is the path of the state whose scalar or template file holds
	// the read ("" for none, and for a script's, which its message does
	// not name)
	state string
	// kept is a scalar's first spelling of the read the import fold leaves
	// as written (world["k"], world['k'], world?.k), "" when it has none;
	// keptOff is the byte offset of its key in src
	kept    string
	keptOff int
}

// readFrom is where a read is written: a story scalar (its world.k
// spellings the fold renames), or a file or script the fold never
// rewrites, whose reads name the folded world's keys as written.
type readFrom int

const (
	fromScalar readFrom = iota
	fromFile
	fromScript
)

// checkWorldKeys warns at a world.K read of a key nothing gives a value
// (ruleWorldKey).
func checkWorldKeys(c *checker) {
	if !c.st.Imported() && len(c.st.Exits) > 0 {
		return // a child loaded on its own: checked in its importers' context
	}
	wk := c.worldKeys()
	if len(wk.reads) == 0 {
		return
	}
	known, names, ok := knownWorld(c)
	if !ok {
		return
	}
	if c.src.folded == nil && !c.expanded {
		c.src.folded = treeFolded(c.src, c.st)
	}
	fw := c.src.folded
	if c.expanded { // a generated state's read is judged by name
		fw = &foldedWorld{partial: true}
	}
	var fixtures map[string]bool // read once, when a read is unknown
	for _, r := range wk.reads {
		// By name, a key given a value anywhere in the tree is known; by
		// its folded key (fw.read), where a scope's read reaches, which
		// decides both ways: a child's declared k is renamed away from the
		// importer's world.k (warned), a sibling's kid__k is reached.
		byName := known.has(r.key) || lifted(c.st, "world", r.key) || importerHas(c.st, "world", r.key)
		nilIn, kept, foldedOK := fw.read(c.st, r)
		if byName && nilIn == nil {
			if sc := fw.shadowed(c.st, r); sc != nil {
				warnShadowed(c, fw, r, sc)
			}
			continue
		}
		if !byName && foldedOK {
			continue
		}
		if fixtures == nil {
			fixtures = fixtureWorld(c.st)
		}
		switch {
		case fixtures[r.key] || byName && known.matchesPattern(r.key):
		case byName && kept && nilIn.key(r.key) != r.key:
			warnKeptNil(c, r, nilIn)
		case byName:
			warnFoldNil(c, fw, r, nilIn)
		default:
			warnRead(c, r, readPos(c, r), "%s reads world.%s, but nothing gives that key a value (it is not declared under world:, written by a set:, increment: or bind:, injected by the engine or set by a flow fixture): it reads as nil%s",
				r.where(), r.key, c.didYouMean(r.key, names))
		}
	}
}

// warnFoldNil warns at r, a read whose key is given a value only under
// the name the fold gives a child's declared key (in scope sc, it reads
// nil), naming the child, the name to read and the fix; nothing when no
// child declares the key (a write of it the fold renamed: not placed).
func warnFoldNil(c *checker, fw *foldedWorld, r worldRead, sc *foldScope) {
	d := fw.declarer(sc, r.key)
	if d == nil {
		return
	}
	folded := d.prefix + r.key
	warnRead(c, r, readPos(c, r), "%s reads world.%s, but only the child imported as %s declares %s, and the fold renames that key %s: here world.%s reads as nil; %sdeclare %s under world: here (or in an importer) and set it from the child with the import's exit set:",
		r.where(), r.key, strings.TrimSuffix(d.prefix, "__"), r.key, folded, r.key, readInstead(sc, folded), r.key)
}

// warnKeptNil warns at r, a read in scope sc of a key the fold renames
// there (world.k is sc.key(k)) in a spelling it leaves as written, so it
// reads the bare k, given no value: it names the child, the folded key
// and the fix, which depends on where the read is written.
func warnKeptNil(c *checker, r worldRead, sc *foldScope) {
	folded := sc.key(r.key)
	in := "in the child imported as " + alias(sc) + ", world." + r.key + " is the key " + folded
	if o := sc.owner(r.key); o != sc {
		in += " (the story imported as " + alias(o) + " declares it)"
	}
	switch r.from {
	case fromFile:
		warnRead(c, r, r.pos, "%s reads world.%s, but the import fold does not rewrite files: %s, so here world.%s reads as nil; read world.%s in this file (the key in this import), or move the read inline (a view:, say: or set: value, which the fold rewrites)",
			r.where(), r.key, in, r.key, folded)
	case fromScript:
		warnRead(c, r, r.pos, "%s reads world.%s, but the import fold does not rewrite scripts: %s, so here it reads None; pass it in with the call's with: {world: {%s: \"{{ world.%s }}\"}}",
			r.where(), r.key, in, r.key, r.key)
	default:
		at, kept := keptPos(c, r)
		warnRead(c, r, at, "%s reads %s, but the import fold renames only the world.%s spelling: %s, so it reads as nil; write world.%s",
			r.where(), kept, r.key, in, r.key)
	}
}

// keptPos is where r's spelling the fold leaves as written is, and that
// spelling (described when keptSpelling does not place it: world?.["k"]).
func keptPos(c *checker, r worldRead) (story.Pos, string) {
	if r.kept == "" {
		return readPos(c, r), "world." + r.key + " in a spelling it leaves as written"
	}
	line, col := lineCol(r.src, r.keptOff)
	return c.src.valuePos(r.pos, r.src, line, col), r.kept
}

// shadowed is the first scope of st where r, a read the fold leaves as
// written (world["k"], world['k'], world?.k, a file's or a script's),
// reaches the bare key k, given a value, while world.k there is another
// key: the child declares k (or a story between it and the top does), so
// the read reaches an importer's k, not the child's. nil when none.
func (fw *foldedWorld) shadowed(st *story.Story, r worldRead) *foldScope {
	if fw.partial || rewrittenRead(r) && r.kept == "" || !fw.keys[r.key] {
		return nil
	}
	for _, sc := range fw.scopes[st] {
		if sc.key(r.key) != r.key {
			return sc
		}
	}
	return nil
}

// warnShadowed warns at r, a read in scope sc that reaches the bare key
// k an importer gives a value where world.k is the child's own key (sc's
// folded key): it names the child, both keys and the fix.
func warnShadowed(c *checker, fw *foldedWorld, r worldRead, sc *foldScope) {
	folded := sc.key(r.key)
	in := "in the child imported as " + alias(sc) + ", world." + r.key + " is the key " + folded
	if o := sc.owner(r.key); o != sc {
		in += " (the story imported as " + alias(o) + " declares it)"
	}
	bare := "the key " + r.key + " another story of the import tree writes"
	if top := fw.top(); top != nil && top.Var(r.key) != nil {
		bare = "the top story's " + r.key
	}
	switch r.from {
	case fromFile:
		warnRead(c, r, r.pos, "%s reads world.%s, but the import fold does not rewrite files: %s, so here world.%s reads %s, not the child's; read world.%s in this file (the child's key in this import)",
			r.where(), r.key, in, r.key, bare, folded)
	case fromScript:
		warnRead(c, r, r.pos, "%s reads world.%s, but the import fold does not rewrite scripts: %s, so here it reads %s, not the child's; pass the child's in with the call's with: {world: {%s: \"{{ world.%s }}\"}}",
			r.where(), r.key, in, bare, r.key, r.key)
	default:
		at, kept := keptPos(c, r)
		warnRead(c, r, at, "%s reads %s, but the import fold renames only the world.%s spelling: %s, so %s reads %s, not the child's; write world.%s",
			r.where(), kept, r.key, in, kept, bare, r.key)
	}
}

// alias is the import alias chain of a child's scope (kid, kid__grand).
func alias(sc *foldScope) string { return strings.TrimSuffix(sc.prefix, "__") }

// readPos is the position of the key of the read's first world.K inside
// its scalar, or the scalar's when it cannot be placed.
func readPos(c *checker, r worldRead) story.Pos {
	off := keyOffset(r.src, r.key)
	if r.src == "" || off < 0 {
		return r.pos // a file's read is placed already
	}
	line, col := lineCol(r.src, off)
	return c.src.valuePos(r.pos, r.src, line, col)
}

// keyOffset is the byte offset of key in the first whole `world.<key>`
// (or ?., ["…"], ['…']) of src, -1 when none.
func keyOffset(src, key string) int {
	best := -1
	for _, form := range [][2]string{{"world.", ""}, {"world?.", ""}, {`world["`, `"]`}, {`world['`, `']`}} {
		if k := wholeRef(src, form[0], key, form[1]); k >= 0 && (best < 0 || k < best) {
			best = k
		}
	}
	return best
}

// wholeRef is the byte offset of key in the first open+key+end of src
// that no identifier character or dot comes before and no identifier
// character after, -1 when none.
func wholeRef(src, open, key, end string) int {
	text := open + key + end
	for from := 0; ; {
		i := strings.Index(src[from:], text)
		if i < 0 {
			return -1
		}
		i += from
		after := i + len(text)
		if (i == 0 || !identByte(src[i-1]) && src[i-1] != '.') && (after == len(src) || !identByte(src[after])) {
			return i + len(open)
		}
		from = i + 1
	}
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// fixtureWorld is the keys the flow fixtures of st and its importers set.
func fixtureWorld(st *story.Story) map[string]bool {
	out := map[string]bool{}
	for s := st; s != nil; s = s.Importer() {
		for _, k := range s.FixtureWorldKeys() {
			out[k] = true
		}
	}
	return out
}

// read is the verdict on r, a read in st, by the key it reaches in the
// folded world: nilIn is a scope of st where that key is given no value
// (nil when none is), kept that it is r's spelling the fold leaves as
// written that reads nil there, ok that r reaches a key given a value in
// every scope of st. A scalar's world.k reaches the key the fold renames
// it to (foldScope.key); world["k"], world['k'], world?.k and a file's or
// a script's read, which the fold leaves as written, the bare key k.
func (fw *foldedWorld) read(st *story.Story, r worldRead) (nilIn *foldScope, kept, ok bool) {
	if fw.partial {
		return nil, false, false
	}
	renamed := rewrittenRead(r)
	asWritten := !renamed || r.kept != ""
	for _, sc := range fw.scopes[st] {
		if renamed && !fw.keys[sc.key(r.key)] {
			return sc, false, false
		}
		if asWritten && !fw.keys[r.key] {
			return sc, true, false
		}
	}
	return nil, false, len(fw.scopes[st]) > 0
}

// rewrittenRead reports whether the fold renames r's key: a scalar's
// world.<key> (not world?.<key> or world["key"], nor a file's read).
func rewrittenRead(r worldRead) bool {
	return r.src != "" && wholeRef(r.src, "world.", r.key, "") >= 0
}

// declarer is the first scope of the tree but sc's chain that declares
// name, whose folded key is its prefix and name; nil when none does.
func (fw *foldedWorld) declarer(sc *foldScope, name string) *foldScope {
	if sc == nil {
		return nil
	}
	var best *foldScope
	for st, scopes := range fw.scopes {
		if st.Var(name) == nil {
			continue
		}
		for _, d := range scopes {
			if d.prefix != "" && d.prefix+name != sc.key(name) && (best == nil || d.prefix < best.prefix) {
				best = d
			}
		}
	}
	return best
}

// readInstead is the "read world.X instead, or " advice of a fold-nil
// finding: X is the name that reaches folded key from scope sc (the
// declarer's prefix less sc's when it is below sc), "" when none does.
func readInstead(sc *foldScope, folded string) string {
	if x := strings.TrimPrefix(folded, sc.prefix); sc.key(x) == folded {
		return "read world." + x + " instead, or "
	}
	return ""
}

// top is the story at the top of the folded tree (the scope with no
// importer), nil when there are no scopes.
func (fw *foldedWorld) top() *story.Story {
	for st, scopes := range fw.scopes {
		for _, sc := range scopes {
			if sc.up == nil {
				return st
			}
		}
	}
	return nil
}

// warnRead warns at p about the read r, its message starting with
// r.where(): the finding carries the place of r's state when where starts
// with it (diag.Diagnostic.Place); on the phases: expansion, the state of
// a finding that names it later (a template file the state includes) is
// kept in c.about for checkExpanded.
func warnRead(c *checker, r worldRead, p story.Pos, format string, a ...any) {
	if r.state == "" {
		c.rep.Warnf(p, ruleWorldKey, format, a...)
		return
	}
	c.rep.WarnAt(p, diag.StatePlace(r.state), ruleWorldKey, format, a...)
	if last := len(c.rep.Diags) - 1; c.about != nil && c.rep.Diags[last].Place.IsZero() {
		c.about[last] = r.state
	}
}
