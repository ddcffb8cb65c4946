package validate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// diagLine matches the first line of a diagnostic in the human format:
// `file[:line[:col]]: severity: message [rule]`.
var diagLine = regexp.MustCompile(`^(\S.*?): (error|warning): .* \[([^\]\s]+)\]$`)

// goldenIDs returns every rule id the diagnostics of a golden file carry.
func goldenIDs(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, l := range strings.Split(string(data), "\n") {
		if m := diagLine.FindStringSubmatch(l); m != nil {
			ids = append(ids, m[3])
		}
	}
	return ids
}

// Every diagnostic pinned by any golden of any package (stories, flow
// fixtures, eval datasets, plugin profiles, ...) names a registered rule.
func TestGoldenRuleIDsAreRegistered(t *testing.T) {
	known := summaries()
	files, diags := 0, 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".golden") || !strings.Contains(filepath.ToSlash(path), "/testdata/") {
			return nil
		}
		files++
		for _, id := range goldenIDs(t, path) {
			diags++
			if _, ok := known[id]; !ok {
				t.Errorf("%s: rule id %q is not registered (declare it as a diag.Rule and list it in its package's Rules)", path, id)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 60 || diags < 60 {
		t.Fatalf("walked %d goldens with %d diagnostics: the walk is broken", files, diags)
	}
}

// Every registered rule has a golden (<rule>/expect.golden in one of
// goldenDirs) that shows one of its diagnostics, except the ones noGolden
// names with the reason.
func TestEveryRuleHasAGolden(t *testing.T) {
	rules := Rules()
	for _, r := range rules {
		if why, ok := noGolden[r.ID]; ok {
			t.Logf("%s: no golden: %s", r.ID, why)
			continue
		}
		found := false
		for _, dir := range goldenDirs {
			path := filepath.Join(dir, r.ID, "expect.golden")
			if _, err := os.Stat(path); err != nil {
				continue
			}
			for _, id := range goldenIDs(t, path) {
				found = found || id == r.ID
			}
		}
		if !found {
			t.Errorf("rule %s has no golden showing it: add a minimal broken input and %s/expect.golden under one of %v", r.ID, r.ID, goldenDirs)
		}
	}
	for id := range noGolden {
		if _, ok := summaries()[id]; !ok {
			t.Errorf("noGolden names %q, which is not a registered rule", id)
		}
	}
}

// ruleSources are the packages whose diagnostics validate reports.
var ruleSources = []string{"../story", "../flowtest", "../eval", "../plugin", "../mcpserve", "."}

// No diagnostic of those packages spells its rule id: the Rule field of
// every composite literal is <rule>.ID, where <rule> is a *diag.Rule
// variable the package declares or a *Rule parameter that forwards one. (A
// package's reporting helpers take a *diag.Rule, so the compiler already
// refuses a string there.)
func TestRuleIDsBoundAtCallSites(t *testing.T) {
	fset := token.NewFileSet()
	sites := 0
	for _, dir := range ruleSources {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var parsed []*ast.File
		rules := map[string]bool{} // names bound to *Rule values in the package
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, file)
			ast.Inspect(file, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.ValueSpec:
					for i, name := range x.Names {
						if i < len(x.Values) && isRuleLit(x.Values[i]) {
							rules[name.Name] = true
						}
					}
				case *ast.Field:
					if isRuleType(x.Type) {
						for _, name := range x.Names {
							rules[name.Name] = true
						}
					}
				}
				return true
			})
		}
		for _, file := range parsed {
			ast.Inspect(file, func(n ast.Node) bool {
				kv, ok := n.(*ast.KeyValueExpr)
				if !ok {
					return true
				}
				if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "Rule" {
					return true
				}
				sites++
				if sel, ok := kv.Value.(*ast.SelectorExpr); ok && sel.Sel.Name == "ID" {
					if x, ok := sel.X.(*ast.Ident); ok && rules[x.Name] {
						return true
					}
				}
				t.Errorf("%s: Rule: is not <rule>.ID of a declared rule value", fset.Position(kv.Pos()))
				return true
			})
		}
	}
	if sites < 15 {
		t.Fatalf("found only %d Rule: fields: the scan is broken", sites)
	}
}

// isRuleLit reports whether e is &diag.Rule{...} (or &Rule{...}).
func isRuleLit(e ast.Expr) bool {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	cl, ok := u.X.(*ast.CompositeLit)
	return ok && isRuleName(cl.Type)
}

// isRuleType reports whether e is *diag.Rule (or *Rule).
func isRuleType(e ast.Expr) bool {
	s, ok := e.(*ast.StarExpr)
	return ok && isRuleName(s.X)
}

func isRuleName(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == "Rule"
	case *ast.SelectorExpr:
		return x.Sel.Name == "Rule"
	}
	return false
}
