package lint

import (
	"path/filepath"
	"strconv"
	"strings"

	"go.starlark.net/syntax"

	"kitsoki/pkg/story"
)

// Bounds on the Starlark modules starlarkReads follows.
const (
	maxStarlarkLoadDepth = 16
	maxStarlarkModules   = 64
)

// starlarkReads records a host.starlark.run script's world reads with no
// default, X.world.get("K") or get(key = "K"), where X is ctx as it flows:
// main's parameter, a helper's parameter main (or such a helper) hands it
// to, in the script or in a .star module it load()s (kitsoki resolves one
// beside the script run, or under the story directory for "//x.star"),
// and a name bound to X.world (w = ctx.world). Keys a with.world mapping
// gives are known.
func (wk *worldKeyCheck) starlarkReads(e *story.Effect) {
	c := wk.c
	script := withString(e, "script")
	if script == "" || story.IsTemplated(script) {
		return
	}
	own := map[string]bool{}
	if w, given := e.With["world"]; given {
		m, ok := w.(map[string]any)
		if !ok {
			return
		}
		for k := range m {
			own[k] = true
		}
	}
	abs, root := c.scriptPath(script)
	sw := &starWalk{wk: wk, own: own, root: root, dir: filepath.Dir(abs), run: "run at " + e.WithPos("script").String(),
		files: map[string]*starFile{}, seen: map[syntax.Position]bool{}}
	main := sw.file(abs, "", 0)
	if main == nil {
		return
	}
	if d, p := mainDef(main.f); d != nil {
		sw.mark(main, d, p)
		sw.drain()
	}
}

// starWalk follows ctx through one script and the modules it loads.
type starWalk struct {
	wk        *worldKeyCheck
	own       map[string]bool // keys with.world gives
	root, dir string          // the story directory; the script's
	run       string
	files     map[string]*starFile // by absolute path; nil: unreadable
	queue     []starDef
	seen      map[syntax.Position]bool // reads recorded
}

// starFile is one parsed Starlark file: its top-level defs, the names its
// load()s bind (to a module and the name it exports), and the parameter
// names of each def that hold ctx.
type starFile struct {
	name, by string // by: what loads it ("" for the script run)
	f        *syntax.File
	depth    int
	defs     map[string]*syntax.DefStmt
	loads    map[string][2]string
	ctx      map[*syntax.DefStmt]map[string]bool
	world    map[*syntax.DefStmt]map[string]bool // parameters handed ctx.world
}

type starDef struct {
	sf *starFile
	d  *syntax.DefStmt
}

// file parses abs, read through the story's root, once.
func (sw *starWalk) file(abs, by string, depth int) *starFile {
	if sf, done := sw.files[abs]; done {
		return sf
	}
	sw.files[abs] = nil
	if len(sw.files) > maxStarlarkModules {
		return nil
	}
	src, err := sw.wk.c.readStory(abs)
	if err != nil {
		return nil
	}
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
	f, err := opts.Parse(abs, src, 0)
	if err != nil {
		return nil
	}
	sf := &starFile{name: sw.wk.c.topPath(abs), by: by, f: f, depth: depth,
		defs: map[string]*syntax.DefStmt{}, loads: map[string][2]string{}, ctx: map[*syntax.DefStmt]map[string]bool{}, world: map[*syntax.DefStmt]map[string]bool{}}
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *syntax.DefStmt:
			sf.defs[st.Name.Name] = st
		case *syntax.LoadStmt:
			if m := sw.module(st); m != "" {
				for i, to := range st.To {
					sf.loads[to.Name] = [2]string{m, st.From[i].Name}
				}
			}
		}
	}
	sw.files[abs] = sf
	return sf
}

// module is the file a load() names as kitsoki's module loader resolves
// it (pkg/host: .star files only, beside the script run, or under the
// story directory for "//x.star"; inside that directory), "" when none.
func (sw *starWalk) module(ld *syntax.LoadStmt) string {
	return starModule(sw.root, sw.dir, ld)
}

// starModule is the module ld names, loaded by a script in dir under the
// story directory root, as starWalk.module resolves it.
func starModule(root, dir string, ld *syntax.LoadStmt) string {
	m, ok := ld.Module.Value.(string)
	if !ok || !strings.HasSuffix(m, ".star") {
		return ""
	}
	base := dir
	if rel, ok := strings.CutPrefix(m, "//"); ok {
		m, base = rel, root
	}
	if !filepath.IsAbs(m) {
		m = filepath.Join(base, filepath.FromSlash(m))
	}
	if m = filepath.Clean(m); !underDir(root, m) {
		return ""
	}
	return m
}

// mark records that d's parameter p holds ctx, queueing d to walk again.
func (sw *starWalk) mark(sf *starFile, d *syntax.DefStmt, p string) {
	sw.markIn(sf, sf.ctx, d, p)
}

// markIn records p in held[d] (sf.ctx or sf.world), queueing d to walk
// again when it is new.
func (sw *starWalk) markIn(sf *starFile, held map[*syntax.DefStmt]map[string]bool, d *syntax.DefStmt, p string) {
	if p == "" || held[d][p] {
		return
	}
	if held[d] == nil {
		held[d] = map[string]bool{}
	}
	held[d][p] = true
	sw.queue = append(sw.queue, starDef{sf, d})
}

// drain walks the queued defs until ctx reaches no new parameter.
func (sw *starWalk) drain() {
	for len(sw.queue) > 0 {
		q := sw.queue[0]
		sw.queue = sw.queue[1:]
		sw.walk(q.sf, q.d)
	}
}

// walk records the world reads of d through its ctx names (and names
// bound to ctx.world), and marks the parameters of the defs it hands ctx.
func (sw *starWalk) walk(sf *starFile, d *syntax.DefStmt) {
	names := sf.ctx[d]
	aliases := map[string]bool{}
	for p := range sf.world[d] {
		aliases[p] = true
	}
	syntax.Walk(d, func(n syntax.Node) bool {
		if as, ok := n.(*syntax.AssignStmt); ok && as.Op == syntax.EQ {
			if id, ok := as.LHS.(*syntax.Ident); ok && worldOf(as.RHS, names) {
				aliases[id.Name] = true
			}
		}
		return true
	})
	syntax.Walk(d, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		if lit := worldGetKey(call, names, aliases); lit != nil {
			sw.read(sf, lit)
		}
		if fn, ok := call.Fn.(*syntax.Ident); ok {
			sw.handsCtx(sf, fn.Name, call.Args, names, aliases)
		}
		return true
	})
}

// handsCtx marks the parameters of the def fn names (in sf, or loaded
// into it) that a call's arguments hand a ctx name, or ctx.world (X.world
// or an alias of it).
func (sw *starWalk) handsCtx(sf *starFile, fn string, args []syntax.Expr, names, aliases map[string]bool) {
	tf, td := sf, sf.defs[fn]
	if l, ok := sf.loads[fn]; ok && sf.depth < maxStarlarkLoadDepth {
		by := sf.name + ", " + sw.run
		if sf.by != "" {
			by = sf.name + ", loaded by " + sf.by
		}
		if tf = sw.file(l[0], by, sf.depth+1); tf == nil {
			return
		}
		td = tf.defs[l[1]]
	}
	if td == nil {
		return
	}
	hand := func(param string, v syntax.Expr) {
		if id, ok := v.(*syntax.Ident); ok && names[id.Name] {
			sw.markIn(tf, tf.ctx, td, param)
		} else if ok && aliases[id.Name] || worldOf(v, names) {
			sw.markIn(tf, tf.world, td, param)
		}
	}
	for i, a := range args {
		if kw, ok := a.(*syntax.BinaryExpr); ok && kw.Op == syntax.EQ { // name = ctx
			if k, ok := kw.X.(*syntax.Ident); ok {
				hand(k.Name, kw.Y)
			}
		} else if i < len(td.Params) {
			hand(paramName(td.Params[i]), a)
		}
	}
}

// read records the read of the literal key lit in sf, once.
func (sw *starWalk) read(sf *starFile, lit *syntax.Literal) {
	key, isStr := lit.Value.(string)
	if !isStr || sw.own[key] || sw.seen[lit.TokenPos] {
		return
	}
	sw.seen[lit.TokenPos] = true
	name, via := sf.name, sw.run
	if sf.by != "" {
		via = "loaded by " + sf.by
	}
	at := story.Pos{File: name, Line: int(lit.TokenPos.Line), Col: int(lit.TokenPos.Col)}
	sw.wk.reads = append(sw.wk.reads, worldRead{key: key, pos: at, from: fromScript,
		where: func() string {
			return "script " + name + " (" + via + ") ctx.world.get(" + strconv.Quote(key) + ")"
		}})
}

// worldOf: x is X.world for a ctx name X.
func worldOf(x syntax.Expr, names map[string]bool) bool {
	d, ok := x.(*syntax.DotExpr)
	if !ok || d.Name.Name != "world" {
		return false
	}
	id, ok := d.X.(*syntax.Ident)
	return ok && names[id.Name]
}

// worldGetKey is the literal key of a world read with no default,
// X.world.get(K) for a ctx name X or A.get(K) for an alias A of X.world,
// K positional or key = K; nil for any other call, or a key known only
// at run time.
func worldGetKey(call *syntax.CallExpr, names, aliases map[string]bool) *syntax.Literal {
	get, ok := call.Fn.(*syntax.DotExpr)
	if !ok || get.Name.Name != "get" || len(call.Args) != 1 {
		return nil
	}
	if id, ok := get.X.(*syntax.Ident); !(ok && aliases[id.Name]) && !worldOf(get.X, names) {
		return nil
	}
	arg := call.Args[0]
	if kw, ok := arg.(*syntax.BinaryExpr); ok && kw.Op == syntax.EQ {
		if id, ok := kw.X.(*syntax.Ident); !ok || id.Name != "key" {
			return nil
		}
		arg = kw.Y
	}
	lit, _ := arg.(*syntax.Literal)
	return lit
}

// paramName is the name of a def parameter (x, or x = default), "" for
// *args and **kwargs.
func paramName(p syntax.Expr) string {
	switch p := p.(type) {
	case *syntax.Ident:
		return p.Name
	case *syntax.BinaryExpr:
		if id, ok := p.X.(*syntax.Ident); ok {
			return id.Name
		}
	}
	return ""
}

// mainDef is the script's top-level def main and the name of its first
// parameter (ctx), nil when there is none (or it is not a plain name).
func mainDef(f *syntax.File) (*syntax.DefStmt, string) {
	for _, st := range f.Stmts {
		def, ok := st.(*syntax.DefStmt)
		if !ok || def.Name.Name != "main" || len(def.Params) == 0 {
			continue
		}
		if id, ok := def.Params[0].(*syntax.Ident); ok {
			return def, id.Name
		}
	}
	return nil, ""
}

// underDir: the clean absolute path p lies inside dir.
func underDir(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
