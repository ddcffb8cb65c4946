package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const fuzzDoc = "docs/fuzz-targets.md"

// TestFuzzTargetsTable: the first table of docs/fuzz-targets.md names each
// fuzz target of the module once, with its package, and names no target
// the module does not declare.
func TestFuzzTargetsTable(t *testing.T) {
	dir := root(t)
	src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(fuzzDoc)))
	if err != nil {
		t.Fatal(err)
	}
	listed, problems := tableTargets(string(src))
	for _, p := range problems {
		t.Error(p)
	}
	declared := declaredTargets(t, dir)
	for _, k := range slices.Sorted(maps.Keys(declared)) {
		if _, ok := listed[k]; !ok {
			t.Errorf("%s: %s is missing from the table of inputs and targets; add it, with its package, to the row of what it reads (declared in %s)", fuzzDoc, k, declared[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(listed)) {
		if _, ok := declared[k]; !ok {
			t.Errorf("%s:%d: the table names %s, which no _test.go file of that package declares; remove it or correct its name or package", fuzzDoc, listed[k], k)
		}
	}
}

// targetGroup is one group of a row's last cell: "FuzzA, FuzzB (pkg/x)".
var targetGroup = regexp.MustCompile(`^(Fuzz\w+(?:, Fuzz\w+)*) \(([\w./-]+)\)$`)

// tableTargets reads the table under the header "| input | parsed in |
// fuzz targets |": each key "FuzzName (pkg/dir)" with the line it is on,
// and a message for each cell or name it cannot read.
func tableTargets(doc string) (map[string]int, []string) {
	listed := map[string]int{}
	var problems []string
	lines := strings.Split(doc, "\n")
	start := slices.Index(lines, "| input | parsed in | fuzz targets |")
	if start < 0 {
		return listed, []string{fuzzDoc + `: no table headed "| input | parsed in | fuzz targets |"`}
	}
	for i := start + 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		cells := strings.Split(strings.Trim(lines[i], "| "), " | ")
		if len(cells) != 3 {
			problems = append(problems, lineMsg(i, "a row of the table has %d cells, want 3 (input, parsed in, fuzz targets)", len(cells)))
			continue
		}
		for _, group := range strings.Split(cells[2], "; ") {
			m := targetGroup.FindStringSubmatch(group)
			if m == nil {
				problems = append(problems, lineMsg(i, "%q is not \"FuzzA, FuzzB (pkg/dir)\"", group))
				continue
			}
			for _, name := range strings.Split(m[1], ", ") {
				k := key(m[2], name)
				if first, dup := listed[k]; dup {
					problems = append(problems, lineMsg(i, "%s is listed again (first on line %d)", k, first))
					continue
				}
				listed[k] = i + 1
			}
		}
	}
	return listed, problems
}

// lineMsg is a message about line index i of the doc.
func lineMsg(i int, format string, args ...any) string {
	return fmt.Sprintf("%s:%d: ", fuzzDoc, i+1) + fmt.Sprintf(format, args...)
}

// declaredTargets is every func FuzzX(*testing.F) of the module's test
// files, keyed as the table is, with the file declaring it.
func declaredTargets(t *testing.T, dir string) map[string]string {
	t.Helper()
	declared := map[string]string{}
	fset := token.NewFileSet()
	sources(t, dir, false, isTest, func(rel string, src []byte) {
		if !strings.Contains(string(src), "func Fuzz") {
			return
		}
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && isFuzzTarget(fn) {
				declared[key(path.Dir(rel), fn.Name.Name)] = rel
			}
		}
	})
	return declared
}

// isFuzzTarget is go test's reading: a func FuzzXxx(*testing.F) with no
// receiver.
func isFuzzTarget(fn *ast.FuncDecl) bool {
	if fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Fuzz") || len(fn.Type.Params.List) != 1 {
		return false
	}
	star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testing" && sel.Sel.Name == "F"
}

func key(pkg, name string) string { return name + " (" + pkg + ")" }
