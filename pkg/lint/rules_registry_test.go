package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every diagnostic is reported through a rule value of the registry: a
// call site passing a string literal, or a Rule that is not in registry,
// fails here (and an id that is not registered cannot reach a user). The
// loader's call sites (pkg/story) are scanned too: its rules are in the
// registry.
func TestReportCallSitesUseRegisteredRules(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	loader, err := filepath.Glob("../story/*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, loader...)
	declared := map[string]bool{}
	alias := map[string]string{} // a name bound to another Rule variable
	registered := map[*Rule]bool{}
	for _, r := range registry {
		registered[r] = true
	}
	calls := 0
	var sites []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				noteRuleDecls(x, declared, alias)
			case *ast.CallExpr:
				method, arg := reportRuleArg(x)
				if arg == nil {
					return true
				}
				calls++
				id, ok := arg.(*ast.Ident)
				if sx, isSel := arg.(*ast.SelectorExpr); isSel {
					if pkg, _ := sx.X.(*ast.Ident); pkg != nil && pkg.Name == "story" {
						id, ok = sx.Sel, true
					}
				}
				if !ok {
					if method == "Add" {
						return true
					}
					t.Errorf("%s: %s call passes %T as its rule, not a registered rule variable", fset.Position(x.Pos()), method, arg)
					return true
				}
				sites = append(sites, fset.Position(x.Pos()).String()+" "+id.Name)
			}
			return true
		})
	}
	if calls < 180 {
		t.Fatalf("found only %d report calls: the scan is broken", calls)
	}
	for _, s := range sites {
		name := s[strings.LastIndexByte(s, ' ')+1:]
		if name == "rule" { // the reporter's own forwarding parameter
			continue
		}
		if !declared[name] && !declared[alias[name]] {
			t.Errorf("%s: rule %s is not a declared Rule variable (here or in pkg/story)", s, name)
		}
	}
	checkRegistryComplete(t, len(declared))
}

// checkRegistryComplete: every one of the declared Rule variables is
// registered, once, with an id, a summary, an example and a severity.
func checkRegistryComplete(t *testing.T, declared int) {
	t.Helper()
	if declared != len(registry) {
		t.Errorf("%d Rule variables declared, %d registered: register every rule in passes (check.go) or story.LoadRules", declared, len(registry))
	}
	ids := map[string]bool{}
	for _, r := range registry {
		if ids[r.ID] || r.ID == "" || r.Summary == "" || r.Example == "" || (r.Severity != "error" && r.Severity != "warning") {
			t.Errorf("rule %+v: duplicate or incomplete", *r)
		}
		ids[r.ID] = true
	}
}

// reportRuleArg is the method and rule argument of a report call (Errf,
// Warnf, Reporter.Add), or a nil arg when x is none.
func reportRuleArg(x *ast.CallExpr) (method string, arg ast.Expr) {
	sel, ok := x.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", nil
	}
	idx := -1
	switch sel.Sel.Name {
	case "Errf", "Warnf":
		idx = 1
	case "Add":
		idx = 2
	}
	if idx < 0 || len(x.Args) <= idx || sel.Sel.Name == "Add" && len(x.Args) < 4 {
		return "", nil // an Add with fewer arguments is not Reporter.Add
	}
	return sel.Sel.Name, x.Args[idx]
}

// noteRuleDecls records the names a value spec binds to a &Rule{...}
// literal (declared) or to another variable (alias).
func noteRuleDecls(x *ast.ValueSpec, declared map[string]bool, alias map[string]string) {
	for i, name := range x.Names {
		if i >= len(x.Values) {
			continue
		}
		if id, ok := x.Values[i].(*ast.Ident); ok {
			alias[name.Name] = id.Name
		}
		if u, ok := x.Values[i].(*ast.UnaryExpr); ok {
			if cl, ok := u.X.(*ast.CompositeLit); ok {
				if id, ok := cl.Type.(*ast.Ident); ok && id.Name == "Rule" {
					declared[name.Name] = true
				}
			}
		}
	}
}
