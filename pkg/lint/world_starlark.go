package lint

import (
	"strconv"

	"go.starlark.net/syntax"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// starlarkReads records a host.starlark.run script's ctx.world.get("K")
// reads with no default; keys a with.world mapping gives are known.
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
	abs, _ := c.scriptPath(script)
	src, err := c.st.FileRoot().ReadFile(abs, safefile.Story)
	if err != nil {
		return
	}
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
	f, err := opts.Parse(abs, src, 0)
	if err != nil {
		return
	}
	ctxName := mainParam(f)
	if ctxName == "" {
		return
	}
	name := c.topPath(abs)
	named := e.WithPos("script")
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		get, ok := call.Fn.(*syntax.DotExpr)
		if !ok || get.Name.Name != "get" {
			return true
		}
		world, ok := get.X.(*syntax.DotExpr)
		if !ok || world.Name.Name != "world" {
			return true
		}
		if id, ok := world.X.(*syntax.Ident); !ok || id.Name != ctxName {
			return true
		}
		lit, ok := call.Args[0].(*syntax.Literal)
		if !ok {
			return true // a key known only at run time
		}
		key, isStr := lit.Value.(string)
		if !isStr || own[key] {
			return true
		}
		at := story.Pos{File: name, Line: int(lit.TokenPos.Line), Col: int(lit.TokenPos.Col)}
		wk.reads = append(wk.reads, worldRead{key: key, pos: at, from: fromScript,
			where: func() string {
				return "script " + name + " (run at " + named.String() + ") ctx.world.get(" + strconv.Quote(key) + ")"
			}})
		return true
	})
}

// mainParam is the name of the first parameter of the script's top-level
// def main, "" when there is none (or it is not a plain name).
func mainParam(f *syntax.File) string {
	for _, st := range f.Stmts {
		def, ok := st.(*syntax.DefStmt)
		if !ok || def.Name.Name != "main" || len(def.Params) == 0 {
			continue
		}
		if id, ok := def.Params[0].(*syntax.Ident); ok {
			return id.Name
		}
	}
	return ""
}
