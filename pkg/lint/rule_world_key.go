package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleWorldKey = &Rule{ID: "world-key", Severity: diag.Warning, LintOnly: true,
	Summary: "a world.K read (a guard, a {{ }} value, a pongo2 view, say:, footer:, target or initial:, a views/ layout or template_file:, an agent call's prompt file, a host.starlark.run script's ctx.world.get(\"K\") with no default) of a key nothing gives a value: not declared under world: (the story's, an importer's, a lifted <alias>__K), not written anywhere in the import tree (set:, increment:, bind:, world_in:, an import exit's set: or overrides: states, the phases: expansion included), not injected by the engine (last_error, host_error, write_mode_scope, session_id, ide, turn_cost_usd, session_cost_usd, last_job_id, last_job_status, last_job_result, $inbox) and not given by the story's flow fixtures (initial_world: or world_override: of flows/*.yaml): both engines read it as nil. Not checked: world[x], files a template includes, reads inside phase templates, a template that binds the name world, a story that writes a key named by a {{ }} template or whose import tree holds a child not loaded here (an @kitsoki/ library story), and a story declaring exits: loaded on its own (it is checked as its importers' child)",
	Example: "world: {count: {type: int, default: 0}}\n... when: \"world.coutn > 3\""}

// worldRead is one world.K read: the key, its scalar and where that is.
type worldRead struct {
	key   string
	src   string
	pos   story.Pos
	where func() string
}

// checkWorldKeys warns at a world.K read of a key nothing gives a value
// (ruleWorldKey).
func checkWorldKeys(c *checker) {
	if c.expanded {
		return // the unexpanded check saw the same reads
	}
	if !c.st.Imported() && len(c.st.Exits) > 0 {
		return // a child loaded on its own: checked in its importers' context
	}
	wk := &worldKeyCheck{c: c}
	wk.collect()
	if len(wk.reads) == 0 {
		return
	}
	known, names, ok := knownWorld(c)
	if !ok {
		return
	}
	var fixtures map[string]bool // read once, when a read is unknown
	for _, r := range wk.reads {
		if known.has(r.key) || lifted(c.st, "world", r.key) || importerHas(c.st, "world", r.key) {
			continue
		}
		if fixtures == nil {
			fixtures = fixtureWorld(c.st)
		}
		if fixtures[r.key] {
			continue
		}
		c.rep.Warnf(readPos(c, r), ruleWorldKey, "%s reads world.%s, but nothing gives that key a value (it is not declared under world:, written by a set:, increment: or bind:, injected by the engine or set by a flow fixture): it reads as nil%s",
			r.where(), r.key, c.didYouMean(r.key, names))
	}
}

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
		text := form[0] + key + form[1]
		for from := 0; ; {
			i := strings.Index(src[from:], text)
			if i < 0 {
				break
			}
			i += from
			end := i + len(text)
			if (i == 0 || !identByte(src[i-1]) && src[i-1] != '.') && (end == len(src) || !identByte(src[end])) {
				if k := i + len(form[0]); best < 0 || k < best {
					best = k
				}
				break
			}
			from = i + 1
		}
	}
	return best
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
