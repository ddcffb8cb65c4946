package lint

import (
	"strconv"
	"strings"

	"kitsoki/pkg/story/expr"
)

// compileKey is one compilation: a check compiles each source once.
type compileKey struct {
	kind compileKind
	src  string
}

type compileKind uint8

const (
	compiledGuard compileKind = iota + 1
	compiledExpr
	compiledTemplate
	compiledPongo     // with the story's loader (rule_pongo.go)
	compiledPongoView // with its views' loader
	// compiledPongoInline: with the story directory's loader (say:,
	// templated targets, initial:)
	compiledPongoInline
)

// compiled returns compile(src)'s error, memoised per check.
func (c *checker) compiled(kind compileKind, src string, compile func(string) error) error {
	k := compileKey{kind, src}
	if err, ok := c.cc[k]; ok {
		return err
	}
	err := compile(src)
	c.cc[k] = err
	return err
}

func (c *checker) compileGuard(src string) error {
	return c.compiled(compiledGuard, src, func(s string) error { p, err := expr.CompileGuard(s); c.keep(compiledGuard, s, p); return err })
}

func (c *checker) compileExpr(src string) error {
	return c.compiled(compiledExpr, src, func(s string) error { p, err := expr.CompileExpr(s); c.keep(compiledExpr, s, p); return err })
}

func (c *checker) compileTemplate(s string) error {
	if !strings.Contains(s, "{{") {
		return nil // a literal: nothing to build
	}
	return c.compiled(compiledTemplate, s, func(s string) error { t, err := expr.CompileTemplate(s); c.keep(compiledTemplate, s, t); return err })
}

// template is expr.CompileTemplate(s), from the check's one compile of s.
func (c *checker) template(s string) (*expr.Template, error) {
	if err := c.compileTemplate(s); err != nil {
		return nil, err
	}
	if t, ok := c.built[compileKey{compiledTemplate, s}].(*expr.Template); ok && t != nil {
		return t, nil
	}
	return expr.CompileTemplate(s)
}

// keep records what a compile built, for world_reads.go.
func (c *checker) keep(kind compileKind, src string, built interface{ WorldKeys() []string }) {
	if c.built == nil {
		c.built = map[compileKey]interface{ WorldKeys() []string }{}
	}
	c.built[compileKey{kind, src}] = built
}

// compileValue compile-checks every string template in a raw value tree and
// returns the location ("", ".a.b", "[2]") of the first failure.
func (c *checker) compileValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return "", c.compileTemplate(x)
	case []any:
		for i, it := range x {
			if p, err := c.compileValue(it); err != nil {
				return "[" + strconv.Itoa(i) + "]" + p, err
			}
		}
	case map[string]any:
		for _, k := range sortedMapKeys(x) {
			if p, err := c.compileValue(x[k]); err != nil {
				return "." + k + p, err
			}
		}
	}
	return "", nil
}

// builtOf is what the check's one compile of a guard or template (kind)
// built, or nil when it does not compile.
func (c *checker) builtOf(kind compileKind, src string) any {
	compile := c.compileTemplate
	if kind == compiledGuard {
		compile = c.compileGuard
	}
	if compile(src) != nil {
		return nil
	}
	return c.built[compileKey{kind, src}]
}
