package lint

import (
	"strconv"
	"strings"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// compileCache memoises expr/template compilation within one load: real
// stories repeat the same guards and templates many times.
type compileCache struct {
	guards    map[string]error
	exprs     map[string]error
	templates map[string]error
}

func (c *checker) cache() *compileCache {
	if c.cc == nil {
		c.cc = &compileCache{guards: map[string]error{}, exprs: map[string]error{}, templates: map[string]error{}}
	}
	return c.cc
}

func (c *checker) compileGuard(src string) error {
	cc := c.cache()
	if err, ok := cc.guards[src]; ok {
		return err
	}
	err := c.opts.Cache.Compiled(story.CompiledGuard, src, func() error { _, err := expr.CompileGuard(src); return err })
	cc.guards[src] = err
	return err
}

func (c *checker) compileExpr(src string) error {
	cc := c.cache()
	if err, ok := cc.exprs[src]; ok {
		return err
	}
	err := c.opts.Cache.Compiled(story.CompiledExpr, src, func() error { _, err := expr.CompileExpr(src); return err })
	cc.exprs[src] = err
	return err
}

func (c *checker) compileTemplate(s string) error {
	if !strings.Contains(s, "{{") {
		return nil // a literal: nothing to build
	}
	cc := c.cache()
	if err, ok := cc.templates[s]; ok {
		return err
	}
	err := c.opts.Cache.Compiled(story.CompiledTemplate, s, func() error { _, err := expr.CompileTemplate(s); return err })
	cc.templates[s] = err
	return err
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
		var buf [8]string
		for _, k := range sortedKeys(x, buf[:0]) {
			if p, err := c.compileValue(x[k]); err != nil {
				return "." + k + p, err
			}
		}
	}
	return "", nil
}
