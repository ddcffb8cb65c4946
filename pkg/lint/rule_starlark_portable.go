package lint

import (
	"errors"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/syntax"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleStarlarkPortable = &Rule{ID: "starlark-portable", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.starlark.run script (and each .star module it load()s) uses only the Starlark the existing engine runs: no while loop, top-level for or if, reassigned global, recursion, set, struct, load() or ctx.world.get with a default",
	Example: "- {invoke: host.starlark.run, with: {script: scripts/count.star}}\n# scripts/count.star:  def main(ctx):\n#                           while ctx.world.get(\"n\", 0) < 3: ..."}

// upstreamDialect is the Starlark the existing engine compiles a script
// with (probed: each option off); kitsoki's is wider (pkg/host).
var upstreamDialect = &syntax.FileOptions{}

// A construct kitsoki runs and the existing engine refuses: what it is,
// when upstream's error fires and the fix.
type starConstruct struct {
	what, fires, fix string
}

var (
	starWhile    = starConstruct{"a while loop", "every call of the script fails there", "use a for loop over range(n) with a break"}
	starTopFor   = starConstruct{"a for loop at top level", "every call of the script fails there", "move the loop into a function (main, or a helper it calls)"}
	starTopIf    = starConstruct{"an if statement at top level", "every call of the script fails there", "move it into a function (main, or a helper it calls), or use a conditional expression (a if c else b)"}
	starReassign = starConstruct{"a reassigned global", "every call of the script fails there", "bind each top-level name once (compute the value in a function, or use another name)"}
	starSet      = starConstruct{"set", "every call of the script fails there", "use a dict with True values (or a list)"}
	starStruct   = starConstruct{"struct", "every call of the script fails there", "use a dict"}
	starLoad     = starConstruct{"load()", "every call of the script fails there", "inline the module's definitions into the script"}
	starRecurse  = starConstruct{"recursion", "a call that reaches it fails there", "rewrite it as a loop over range(n) (with a list as a stack)"}
	starGetDflt  = starConstruct{"ctx.world.get with a default", "a call that reaches it fails there", "use ctx.world.get(k) or d (or test the value against None)"}
)

// upstreamResolveErrs maps the existing engine's compile errors to the
// construct each refuses (its second error at a top-level while, "while
// loop not within a function", is the first's place: not listed).
var upstreamResolveErrs = []struct {
	prefix string
	c      *starConstruct
}{
	{"this Starlark dialect does not support while loops", &starWhile},
	{"for loop not within a function", &starTopFor},
	{"if statement not within a function", &starTopIf},
	{"cannot reassign global ", &starReassign},
	{"cannot reassign top-level ", &starReassign},
	{"this Starlark dialect does not support sets", &starSet},
	{"undefined: struct", &starStruct},
}

// checkStarlarkPortable warns at each construct of a host.starlark.run
// script, or of a .star module it load()s, that kitsoki runs and the
// existing engine refuses (docs/compat/hosts.md). Each file is checked
// once per load, naming the first call that runs it.
func checkStarlarkPortable(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if site.Template || !runsStarlark(c.st, e, site) {
			return
		}
		script := withString(e, "script")
		if script == "" || story.IsTemplated(script) {
			return
		}
		abs, root := c.scriptPath(script)
		if !underDir(root, abs) {
			return // rule starlark
		}
		c.portableFile(root, abs, "run at "+e.WithPos("script").String(), 0)
	})
}

// portableFile checks the Starlark file abs (via: what runs or loads it)
// and the modules it loads, each once per load.
func (c *checker) portableFile(root, abs, via string, depth int) {
	if c.src.portable == nil {
		c.src.portable = map[string]bool{}
	}
	if c.src.portable[abs] || depth > maxStarlarkLoadDepth { // each file once: a load cycle ends
		return
	}
	c.src.portable[abs] = true
	data, err := c.readStory(abs)
	if err != nil {
		return // rule starlark, or the run, says why
	}
	name := c.topPath(abs)
	f, err := upstreamDialect.Parse(name, data, 0)
	if err != nil {
		return // both engines refuse it
	}
	inlined := ""
	if depth > 0 {
		inlined = "inlined into the script (upstream loads no module), "
	}
	for _, fd := range portableFindings(f) {
		at := story.Pos{File: name, Line: int(fd.pos.Line), Col: int(fd.pos.Col)}
		c.rep.Warnf(at, ruleStarlarkPortable, "script %s (%s) uses %s, which the existing engine refuses: %s%s with %q; %s",
			name, via, fd.c.what, inlined, fd.c.fires, fd.upstream, fd.c.fix)
	}
	by := "loaded by " + name + ", " + via
	for _, st := range f.Stmts {
		if ld, ok := st.(*syntax.LoadStmt); ok {
			if m := starModule(root, filepath.Dir(abs), ld); m != "" {
				c.portableFile(root, m, by, depth+1)
			}
		}
	}
}

// portableFinding is one construct upstream refuses, with its error.
type portableFinding struct {
	pos      syntax.Position
	c        *starConstruct
	upstream string
}

// portableFindings resolves f as the existing engine compiles it (every
// name but struct and set known: only those two differ) and reports, in
// source order and once per place, each construct it refuses at compile
// time, each load(), each function calling itself by name and each
// X.world.get call with a default.
func portableFindings(f *syntax.File) []portableFinding {
	var out []portableFinding
	type place struct {
		pos syntax.Position
		c   *starConstruct
	}
	seen := map[place]bool{}
	add := func(p syntax.Position, c *starConstruct, msg string) {
		if !seen[place{p, c}] {
			seen[place{p, c}] = true
			out = append(out, portableFinding{p, c, msg})
		}
	}
	err := resolve.File(f, func(n string) bool { return n != "struct" && n != "set" }, func(n string) bool { return n == "set" })
	var errs resolve.ErrorList
	errors.As(err, &errs)
	for _, e := range errs {
		for _, u := range upstreamResolveErrs {
			if e.Msg == u.prefix || strings.HasPrefix(e.Msg, u.prefix) && (strings.HasSuffix(u.prefix, " ") || e.Msg[len(u.prefix)] == ' ') {
				add(e.Pos, u.c, e.Msg)
			}
		}
	}
	for _, st := range f.Stmts {
		if ld, ok := st.(*syntax.LoadStmt); ok {
			add(ld.Load, &starLoad, "load not implemented by this application")
		}
	}
	worlds := map[*resolve.Binding]bool{} // names bound to X.world
	syntax.Walk(f, func(n syntax.Node) bool {
		if as, ok := n.(*syntax.AssignStmt); ok && as.Op == syntax.EQ {
			if id, ok := as.LHS.(*syntax.Ident); ok && isWorldAttr(as.RHS) {
				if b, ok := id.Binding.(*resolve.Binding); ok {
					worlds[b] = true
				}
			}
		}
		return true
	})
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DefStmt:
			if p, ok := selfCall(n); ok {
				add(p, &starRecurse, "function "+n.Name.Name+" called recursively")
			}
		case *syntax.CallExpr:
			if p, ok := worldGetDefault(n, worlds); ok {
				add(p, &starGetDflt, "ctx.world.get: got "+strconv.Itoa(len(n.Args))+" arguments, want at most 1")
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].pos, out[j].pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return out
}

// isWorldAttr reports whether x is X.world.
func isWorldAttr(x syntax.Expr) bool {
	d, ok := x.(*syntax.DotExpr)
	return ok && d.Name.Name == "world"
}

// worldGetDefault is the place of get in X.world.get(k, d) (or w.get(k,
// d), w bound to X.world): upstream's get takes the key alone.
func worldGetDefault(call *syntax.CallExpr, worlds map[*resolve.Binding]bool) (syntax.Position, bool) {
	d, ok := call.Fn.(*syntax.DotExpr)
	if !ok || d.Name.Name != "get" || len(call.Args) < 2 {
		return syntax.Position{}, false
	}
	if isWorldAttr(d.X) {
		return d.Name.NamePos, true
	}
	if id, ok := d.X.(*syntax.Ident); ok {
		if b, ok := id.Binding.(*resolve.Binding); ok && worlds[b] {
			return d.Name.NamePos, true
		}
	}
	return syntax.Position{}, false
}

// selfCall is the place of d's first call of itself by name (a top-level
// def's global, a nested def's free name; a local that shadows it is
// another function).
func selfCall(d *syntax.DefStmt) (syntax.Position, bool) {
	var at syntax.Position
	found := false
	for _, st := range d.Body {
		syntax.Walk(st, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if found || !ok {
				return !found
			}
			id, ok := call.Fn.(*syntax.Ident)
			if !ok || id.Name != d.Name.Name {
				return true
			}
			b, _ := id.Binding.(*resolve.Binding)
			if b != nil && (b.Scope == resolve.Global && b.First == d.Name || b.Scope == resolve.Free) {
				at, found = id.NamePos, true
			}
			return !found
		})
	}
	return at, found
}
