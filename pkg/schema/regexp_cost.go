package schema

import (
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/recost"
)

// boundedRegexp is the library's regexp engine (Go's regexp) with each
// match held to recost's bound: a schema's pattern or patternProperties
// comes from the repository, the text from an answer or a tool's
// arguments, and a match can be interrupted neither by --timeout nor by a
// context. A match past the bound does not run and reports no match;
// leafOf says why in the pattern's failure.
//
// Compiling is bounded too: a story's patterns (every schema and the files
// their $refs load, and what else the story compiles) compile within one
// recost.Budget, a pattern past it refused before it compiles.
func boundedRegexp(b *recost.Budget) func(string) (jsonschema.Regexp, error) {
	return func(expr string) (jsonschema.Regexp, error) {
		re, err := b.Compile(expr)
		if err != nil {
			return nil, err
		}
		return costlyRegexp{Regexp: re, insts: b.Insts(expr)}, nil
	}
}

// costlyRegexp is a compiled pattern and the instructions it compiles to.
type costlyRegexp struct {
	*regexp.Regexp
	insts int
}

// MatchString is false, without matching, when matching s could pass
// recost.MaxSteps.
func (r costlyRegexp) MatchString(s string) bool {
	if recost.Check(r.insts, len(s)) != nil {
		return false
	}
	return r.Regexp.MatchString(s)
}

// patternCost is why a pattern's match against got was not run, or nil
// when it was.
func patternCost(want, got string) error {
	return recost.Check(recost.Insts(want), len(got))
}
