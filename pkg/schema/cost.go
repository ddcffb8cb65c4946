package schema

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MaxValidationSteps bounds the subschema visits one validation may make:
// the validator has no budget of its own, and a small schema can reach one
// subschema through exponentially many routes. Validate counts the visits
// first, each pair of subschema and value node once.
const MaxValidationSteps = 4_000_000

// costNode is one node of the value being validated: object members and
// array elements are kept as nodes so that (subschema, node) pairs can be
// memoized by identity.
type costNode struct {
	obj map[string]*costNode
	arr []*costNode
}

// leafNode stands for every scalar (and every property name).
var leafNode = &costNode{}

func newCostNode(v any) *costNode {
	switch v := v.(type) {
	case map[string]any:
		n := &costNode{obj: make(map[string]*costNode, len(v))}
		for k, x := range v {
			n.obj[k] = newCostNode(x)
		}
		return n
	case []any:
		n := &costNode{arr: make([]*costNode, len(v))}
		for i, x := range v {
			n.arr[i] = newCostNode(x)
		}
		return n
	}
	return leafNode
}

type costKey struct {
	s *jsonschema.Schema
	n *costNode
}

// coster counts the subschema visits a validation would make: an upper
// bound (every applicator counted as evaluated), computed once per pair.
type coster struct {
	memo  map[costKey]int // -1 while the pair is being counted
	pairs int             // pairs computed: the counting's own work
}

// validationCost is the visits validating v against s makes, saturated
// just past MaxValidationSteps.
func validationCost(s *jsonschema.Schema, v any) int {
	c := &coster{memo: map[costKey]int{}}
	return c.cost(s, newCostNode(v))
}

func (c *coster) cost(s *jsonschema.Schema, n *costNode) int {
	if s == nil {
		return 0
	}
	k := costKey{s, n}
	if v, ok := c.memo[k]; ok {
		if v < 0 {
			return 1 // a cycle in place: the validator reports it
		}
		return v
	}
	if c.pairs > MaxValidationSteps {
		return MaxValidationSteps + 1 // the counting has done the limit's worth of work
	}
	c.memo[k] = -1
	c.pairs++
	total := 1
	add := func(x int) { total = min(total+x, MaxValidationSteps+1) }
	inPlace(s, func(sub *jsonschema.Schema) { add(c.cost(sub, n)) })
	for name, kid := range n.obj {
		if p, ok := s.Properties[name]; ok {
			add(c.cost(p, kid))
		} else if ap, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			add(c.cost(ap, kid))
		}
		for re, p := range s.PatternProperties {
			if re.MatchString(name) {
				add(c.cost(p, kid))
			}
		}
		add(c.cost(s.PropertyNames, leafNode))
		add(c.cost(s.UnevaluatedProperties, kid))
	}
	for i, kid := range n.arr {
		switch items := s.Items.(type) {
		case *jsonschema.Schema:
			add(c.cost(items, kid))
		case []*jsonschema.Schema:
			if i < len(items) {
				add(c.cost(items[i], kid))
			} else if ai, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
				add(c.cost(ai, kid))
			}
		}
		if i < len(s.PrefixItems) {
			add(c.cost(s.PrefixItems[i], kid))
		} else {
			add(c.cost(s.Items2020, kid))
		}
		add(c.cost(s.Contains, kid))
		add(c.cost(s.UnevaluatedItems, kid))
	}
	c.memo[k] = total
	return total
}

// inPlace calls f with each subschema s applies to the same value.
func inPlace(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	for _, sub := range [...]*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else, s.ContentSchema} {
		if sub != nil {
			f(sub)
		}
	}
	if s.DynamicRef != nil && s.DynamicRef.Ref != nil {
		f(s.DynamicRef.Ref)
	}
	for _, list := range [...][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, sub := range list {
			f(sub)
		}
	}
	for _, d := range s.DependentSchemas {
		f(d)
	}
	for _, d := range s.Dependencies {
		if d, ok := d.(*jsonschema.Schema); ok {
			f(d)
		}
	}
}

// costError is the refusal of a value whose validation would pass
// MaxValidationSteps.
func costError(name string) *ValidationError {
	return &ValidationError{Constraint: "cost", Message: fmt.Sprintf("validating this value against %s would visit more than %d subschemas (the schema reaches the same subschema through many anyOf/allOf/oneOf/$ref routes, repeated at each level of the value); simplify the schema", name, MaxValidationSteps)}
}
