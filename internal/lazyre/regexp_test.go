package lazyre

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestPatternsCompile compiles every lazyre.Regexp literal in the module, so
// that a bad pattern fails here instead of panicking on a user's first match.
func TestPatternsCompile(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Only a file naming lazyre.Regexp{ can hold a literal isRegexpType
		// matches (make test's gofmt check leaves no space before the brace);
		// the other files need no parse.
		if !bytes.Contains(src, []byte("lazyre.Regexp{")) {
			return nil
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(node ast.Node) bool {
			lit, ok := node.(*ast.CompositeLit)
			if !ok || !isRegexpType(lit.Type) {
				return true
			}
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok || kv.Key.(*ast.Ident).Name != "Expr" {
					continue
				}
				bl, ok := kv.Value.(*ast.BasicLit)
				if !ok {
					t.Errorf("%s: Expr is not a string literal; this test cannot check it", fset.Position(kv.Pos()))
					continue
				}
				src, err := strconv.Unquote(bl.Value)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := regexp.Compile(src); err != nil {
					t.Errorf("%s: %v", fset.Position(bl.Pos()), err)
				}
				n++
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Fatalf("found %d lazyre.Regexp literals in the module, want the 30+ it declares", n)
	}
}

func isRegexpType(e ast.Expr) bool {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == "lazyre" && sel.Sel.Name == "Regexp"
	}
	return false
}

func TestForwardsToCompiled(t *testing.T) {
	r := &Regexp{Expr: `a(b+)`}
	if r.String() != `a(b+)` {
		t.Fatalf("String() = %q", r.String())
	}
	if r.re.Load() != nil {
		t.Fatal("compiled before first use")
	}
	if !r.MatchString("xabb") || r.MatchString("ac") {
		t.Fatal("MatchString")
	}
	if got := r.FindStringSubmatch("abb"); len(got) != 2 || got[1] != "bb" {
		t.Fatalf("FindStringSubmatch = %q", got)
	}
	if got := r.FindAllString("ab abb", -1); len(got) != 2 {
		t.Fatalf("FindAllString = %q", got)
	}
	if got := r.FindAllStringSubmatch("ab abb", -1); len(got) != 2 || got[1][1] != "bb" {
		t.Fatalf("FindAllStringSubmatch = %q", got)
	}
	if got := r.FindAllSubmatch([]byte("abbb"), -1); len(got) != 1 || string(got[0][1]) != "bbb" {
		t.Fatalf("FindAllSubmatch = %q", got)
	}
	if got := r.ReplaceAllString("xab", "<$1>"); got != "x<b>" {
		t.Fatalf("ReplaceAllString = %q", got)
	}
	if got := r.ReplaceAllStringFunc("xab", strings.ToUpper); got != "xAB" {
		t.Fatalf("ReplaceAllStringFunc = %q", got)
	}
	if first, again := r.Get(), r.Get(); first != again {
		t.Fatal("Get compiled twice")
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	r := &Regexp{Expr: `^x+$`}
	var wg sync.WaitGroup
	got := make([]*regexp.Regexp, 8)
	for i := range got {
		wg.Go(func() {
			got[i] = r.Get()
		})
	}
	wg.Wait()
	for _, re := range got {
		if re != got[0] {
			t.Fatal("goroutines saw different compiled patterns")
		}
	}
}

func TestBadPatternPanicsOnUse(t *testing.T) {
	r := &Regexp{Expr: `(`}
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for an invalid pattern")
		}
	}()
	r.Get()
}

// String returns the source text, as regexp.Regexp.String does, without
// compiling it.
func (r *Regexp) String() string { return r.Expr }
