package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Evaluation walks the compiled nodes over a decoded instance. Leaves are
// collected depth-first (keyword order: type, const, enum, format, $ref,
// the type's own keywords, dynamic refs, not/allOf/anyOf/oneOf/if,
// unevaluated*); a keyword that passes after all drops the leaves its
// branches left. quiet evaluation only wants the verdict.

type leaf struct {
	path       []string
	constraint string
	msg        string
}

type evaluation struct {
	leaves     []leaf
	path       []string
	stack      []*node // dynamic scope: every node entered, outermost first
	chainStart int     // where the nodes applied to the current instance begin
}

// annot collects which properties/items of the current instance were
// evaluated, for unevaluatedProperties/unevaluatedItems.
type annot struct {
	allProps bool
	props    map[string]struct{}
	allItems bool
	prefix   int
	items    map[int]struct{}
}

func (a *annot) prop(k string) {
	if a.props == nil {
		a.props = map[string]struct{}{}
	}
	a.props[k] = struct{}{}
}

func (a *annot) item(i int) {
	if a.items == nil {
		a.items = map[int]struct{}{}
	}
	a.items[i] = struct{}{}
}

func (a *annot) merge(o *annot) {
	a.allProps = a.allProps || o.allProps
	for k := range o.props {
		a.prop(k)
	}
	a.allItems = a.allItems || o.allItems
	a.prefix = max(a.prefix, o.prefix)
	for i := range o.items {
		a.item(i)
	}
}

func (a *annot) propDone(k string) bool {
	if a.allProps {
		return true
	}
	_, ok := a.props[k]
	return ok
}

func (a *annot) itemDone(i int) bool {
	if a.allItems || i < a.prefix {
		return true
	}
	_, ok := a.items[i]
	return ok
}

func (ev *evaluation) fail(quiet bool, constraint, msg string) {
	if quiet {
		return
	}
	ev.leaves = append(ev.leaves, leaf{path: slices.Clone(ev.path), constraint: constraint, msg: msg})
}

// child evaluates n over a member of the current instance.
func (ev *evaluation) child(n *node, v any, tok string, quiet bool) bool {
	ev.path = append(ev.path, tok)
	saved := ev.chainStart
	ev.chainStart = len(ev.stack)
	ok := ev.eval(n, v, quiet, nil)
	ev.chainStart = saved
	ev.path = ev.path[:len(ev.path)-1]
	return ok
}

// inPlace evaluates n over the same instance; its annotations join ann
// only when it passes.
func (ev *evaluation) inPlace(n *node, v any, quiet bool, ann *annot) bool {
	if ann == nil {
		return ev.eval(n, v, quiet, nil)
	}
	var sub annot
	ok := ev.eval(n, v, quiet, &sub)
	if ok {
		ann.merge(&sub)
	}
	return ok
}

// eval evaluates n over v: first what ends the evaluation when it fails
// (a false schema, a reference cycle, a metaschema, type, const, enum and
// format), then the rest of n's keywords.
func (ev *evaluation) eval(n *node, v any, quiet bool, ann *annot) bool {
	if n.isBool {
		if !n.bval {
			ev.fail(quiet, "false", "false schema")
		}
		return n.bval
	}
	if ev.entered(n) {
		ev.fail(quiet, "$ref", fmt.Sprintf("reference cycle: %s applies to this value again without descending into it", n.location()))
		return false
	}
	ev.stack = append(ev.stack, n)
	defer func() { ev.stack = ev.stack[:len(ev.stack)-1] }()

	t := typeOf(v)
	if t == 0 {
		ev.fail(quiet, "json", fmt.Sprintf("invalid jsonType %T", v))
		return false
	}
	if n.meta != 0 {
		if is := metaCheck(v, "", n.meta); is != nil {
			ev.fail(quiet, "schema", fmt.Sprintf("not a valid %s schema: at %q: %s", n.meta, is.ptr, is.msg))
			return false
		}
		return true
	}
	if n.refOnly {
		return ev.inPlace(n.ref, v, quiet, ann)
	}
	if n.types != 0 && n.types&t == 0 {
		if !(n.types&tInteger != 0 && t == tNumber && isIntegral(v)) {
			ev.fail(quiet, "type", fmt.Sprintf("got %s, want %s", t, strings.Join(n.types.names(), " or ")))
			return false
		}
	}
	if n.hasConst && !equalJSON(v, n.constV) {
		msg := "'const' failed"
		if ct := typeOf(n.constV); ct != tArray && ct != tObject {
			msg = "value must be " + displayValue(n.constV)
		}
		ev.fail(quiet, "const", msg)
		return false
	}
	if n.hasEnum && !containsJSON(n.enum, v) {
		ev.fail(quiet, "enum", enumMessage(n.enum))
		return false
	}
	if n.format != nil {
		if s, ok := v.(string); ok {
			if err := n.format(s); err != nil {
				ev.fail(quiet, "format", fmt.Sprintf("%s is not valid %s: %v", displayValue(v), n.formatName, err))
				return false
			}
		}
	}
	return ev.keywords(n, v, quiet, ann)
}

// entered reports whether n already applies to the current instance (a
// reference cycle that never descends into the value).
func (ev *evaluation) entered(n *node) bool {
	for _, m := range ev.stack[ev.chainStart:] {
		if m == n {
			return true
		}
	}
	return false
}

// keywords evaluates the rest of n in order: $ref, the keywords of v's
// own type, the applicators, the unevaluated keywords.
func (ev *evaluation) keywords(n *node, v any, quiet bool, ann *annot) bool {
	own := ann
	if own == nil && n.hasUneval() {
		own = &annot{}
	}
	ok := true
	if n.ref != nil && !ev.inPlace(n.ref, v, quiet, own) {
		ok = false
	}
	switch x := v.(type) {
	case map[string]any:
		if !ev.object(n, x, quiet, own) {
			ok = false
		}
	case []any:
		if !ev.array(n, x, quiet, own) {
			ok = false
		}
	case string:
		if !ev.str(n, x, quiet) {
			ok = false
		}
	case nil, bool:
	default:
		if !ev.number(n, v, quiet) {
			ok = false
		}
	}
	if quiet && !ok {
		return false
	}
	if !ev.applicators(n, v, quiet, own) {
		ok = false
	}
	if quiet && !ok {
		return false
	}
	if !ev.unevaluated(n, v, quiet, own) {
		ok = false
	}
	return ok
}

// containsJSON reports whether list holds a value equal to v.
func containsJSON(list []any, v any) bool {
	for _, e := range list {
		if equalJSON(v, e) {
			return true
		}
	}
	return false
}

func isIntegral(v any) bool {
	d, ok := toDecimal(v)
	return ok && d.isInteger()
}

func enumMessage(enum []any) string {
	for _, e := range enum {
		if t := typeOf(e); t == tArray || t == tObject {
			return "'enum' failed"
		}
	}
	if len(enum) == 1 {
		return "value must be " + displayValue(enum[0])
	}
	parts := make([]string, len(enum))
	for i, e := range enum {
		parts[i] = displayValue(e)
	}
	return "value must be one of " + strings.Join(parts, ", ")
}

func (ev *evaluation) object(n *node, obj map[string]any, quiet bool, ann *annot) bool {
	ok := ev.objectSize(n, obj, quiet)
	if quiet && !ok {
		return false
	}
	if len(n.deps) > 0 && !ev.dependencies(n, obj, false, quiet, ann) {
		ok = false
	}
	var extra []string
	for k, pv := range obj {
		if quiet && !ok {
			return false
		}
		seen := false
		if c, has := n.props[k]; has {
			seen = true
			if !ev.child(c, pv, k, quiet) {
				ok = false
			}
		}
		for _, pp := range n.patternProps {
			if pp.re.MatchString(k) {
				seen = true
				if !ev.child(pp.n, pv, k, quiet) {
					ok = false
				}
			}
		}
		if !seen {
			if n.additionalFalse {
				extra = append(extra, k)
				seen = true
			} else if n.additional != nil {
				seen = true
				if !ev.child(n.additional, pv, k, quiet) {
					ok = false
				}
			}
		}
		if seen && ann != nil {
			ann.prop(k)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		ev.fail(quiet, "additionalProperties", "additional properties "+joinQuoted(extra)+" not allowed")
		ok = false
	}
	if n.propertyNames != nil && !ev.propertyNames(n, obj, quiet) {
		ok = false
		if quiet {
			return false
		}
	}
	if len(n.deps) > 0 && !ev.dependencies(n, obj, true, quiet, ann) {
		ok = false
	}
	return ok
}

// objectSize checks minProperties, maxProperties and required.
func (ev *evaluation) objectSize(n *node, obj map[string]any, quiet bool) bool {
	ok := true
	if n.minProps >= 0 && len(obj) < n.minProps {
		ev.fail(quiet, "minProperties", fmt.Sprintf("got %s, want %s", groupInt(len(obj)), groupInt(n.minProps)))
		ok = false
	}
	if n.maxProps >= 0 && len(obj) > n.maxProps {
		ev.fail(quiet, "maxProperties", fmt.Sprintf("got %s, want %s", groupInt(len(obj)), groupInt(n.maxProps)))
		ok = false
	}
	if missing := missingNames(obj, n.required); missing != nil {
		if len(missing) == 1 {
			ev.fail(quiet, "required", "missing property "+quoteName(missing[0]))
		} else {
			ev.fail(quiet, "required", "missing properties "+joinQuoted(missing))
		}
		ok = false
	}
	return ok
}

// dependencies evaluates the "dependencies" entries of n (late false) or
// its "dependentSchemas"/"dependentRequired" entries (late true).
func (ev *evaluation) dependencies(n *node, obj map[string]any, late, quiet bool, ann *annot) bool {
	ok := true
	for _, dep := range n.deps {
		if (dep.kw == "dependentSchemas" || dep.kw == "dependentRequired") != late {
			continue
		}
		if !ev.dependency(dep, obj, quiet, ann) {
			ok = false
		}
	}
	return ok
}

// propertyNames evaluates every property name (in sorted order) against
// n.propertyNames, one leaf per refused name; quiet evaluation stops at
// the first.
func (ev *evaluation) propertyNames(n *node, obj map[string]any, quiet bool) bool {
	ok := true
	for _, k := range sortedKeys(obj) {
		var sub evaluation
		sub.stack = ev.stack
		sub.chainStart = len(ev.stack)
		if !sub.eval(n.propertyNames, k, quiet, nil) {
			ok = false
			if quiet {
				return false
			}
			detail := ""
			if len(sub.leaves) > 0 {
				l := sub.leaves[0]
				detail = " (" + l.constraint + ": " + l.msg + ")"
			}
			ev.fail(quiet, "propertyNames", "invalid propertyName "+quoteName(k)+detail)
		}
	}
	return ok
}

func (ev *evaluation) dependency(dep dependency, obj map[string]any, quiet bool, ann *annot) bool {
	if _, present := obj[dep.prop]; !present {
		return true
	}
	if dep.n != nil {
		return ev.inPlace(dep.n, obj, quiet, ann)
	}
	if missing := missingNames(obj, dep.names); missing != nil {
		ev.fail(quiet, dep.kw, fmt.Sprintf("properties %s required, if %s exists", joinQuoted(missing), quoteName(dep.prop)))
		return false
	}
	return true
}

func missingNames(obj map[string]any, names []string) []string {
	var missing []string
	for _, k := range names {
		if _, ok := obj[k]; !ok {
			missing = append(missing, k)
		}
	}
	return missing
}

func (ev *evaluation) array(n *node, arr []any, quiet bool, ann *annot) bool {
	ok := ev.arraySize(n, arr, quiet)
	if quiet && !ok {
		return false
	}
	evaluated := min(len(n.prefix), len(arr))
	if !ev.itemSchemas(n, arr, evaluated, quiet, ann) {
		ok = false
		if quiet {
			return false
		}
	}
	if n.rest == nil && n.restForbidden && evaluated < len(arr) {
		ev.fail(quiet, "additionalItems", fmt.Sprintf("last %s additionalItem(s) not allowed", groupInt(len(arr)-evaluated)))
		ok = false
	}
	if n.contains != nil && !ev.contains(n, arr, quiet, ann) {
		ok = false
	}
	return ok
}

// arraySize checks minItems, maxItems and uniqueItems.
func (ev *evaluation) arraySize(n *node, arr []any, quiet bool) bool {
	ok := true
	if n.minItems >= 0 && len(arr) < n.minItems {
		ev.fail(quiet, "minItems", fmt.Sprintf("got %s, want %s", groupInt(len(arr)), groupInt(n.minItems)))
		ok = false
	}
	if n.maxItems >= 0 && len(arr) > n.maxItems {
		ev.fail(quiet, "maxItems", fmt.Sprintf("got %s, want %s", groupInt(len(arr)), groupInt(n.maxItems)))
		ok = false
	}
	if n.uniqueItems {
		if i, j := firstDuplicate(arr); i >= 0 {
			ev.fail(quiet, "uniqueItems", fmt.Sprintf("items at %s and %s are equal", groupInt(i), groupInt(j)))
			ok = false
		}
	}
	return ok
}

// itemSchemas evaluates the first evaluated items against the prefix
// schemas and the rest against the items schema; quiet evaluation stops
// at the first failure.
func (ev *evaluation) itemSchemas(n *node, arr []any, evaluated int, quiet bool, ann *annot) bool {
	ok := true
	for i := 0; i < evaluated; i++ {
		if !ev.child(n.prefix[i], arr[i], strconv.Itoa(i), quiet) {
			ok = false
			if quiet {
				return false
			}
		}
	}
	if ann != nil {
		ann.prefix = max(ann.prefix, evaluated)
	}
	if n.rest == nil {
		return ok
	}
	for i := evaluated; i < len(arr); i++ {
		if !ev.child(n.rest, arr[i], strconv.Itoa(i), quiet) {
			ok = false
			if quiet {
				return false
			}
		}
	}
	if ann != nil {
		ann.allItems = true
	}
	return ok
}

// contains evaluates contains with minContains/maxContains; the leaves of
// the items that did not match go when enough did.
func (ev *evaluation) contains(n *node, arr []any, quiet bool, ann *annot) bool {
	ok := true
	mark := len(ev.leaves)
	var matched []int
	for i, item := range arr {
		if ev.child(n.contains, item, strconv.Itoa(i), quiet) {
			matched = append(matched, i)
			if ann != nil && n.draft >= draft2020 {
				ann.item(i)
			}
		}
	}
	passed := true
	switch {
	case n.minContains >= 0:
		if len(matched) < n.minContains {
			passed = false
			if len(ev.leaves) == mark {
				msg := fmt.Sprintf("min %s items required to match contains schema, but none matched", groupInt(n.minContains))
				if len(matched) > 0 {
					msg = fmt.Sprintf("min %s items required to match contains schema, but matched %s items at %s", groupInt(n.minContains), groupInt(len(matched)), joinInts(matched))
				}
				ev.fail(quiet, "minContains", msg)
			}
		}
	case len(matched) == 0:
		passed = false
		if len(ev.leaves) == mark {
			ev.fail(quiet, "contains", "no items match contains schema")
		}
	}
	if passed {
		ev.leaves = ev.leaves[:mark]
	} else {
		ok = false
	}
	if n.maxContains >= 0 && len(matched) > n.maxContains {
		ev.fail(quiet, "maxContains", fmt.Sprintf("max %s items required to match contains schema, but matched %s items at %s", groupInt(n.maxContains), groupInt(len(matched)), joinInts(matched)))
		ok = false
	}
	return ok
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, " ")
}

func (ev *evaluation) str(n *node, s string, quiet bool) bool {
	ok := true
	if n.minLength >= 0 || n.maxLength >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLength >= 0 && l < n.minLength {
			ev.fail(quiet, "minLength", fmt.Sprintf("got %s, want %s", groupInt(l), groupInt(n.minLength)))
			ok = false
		}
		if n.maxLength >= 0 && l > n.maxLength {
			ev.fail(quiet, "maxLength", fmt.Sprintf("got %s, want %s", groupInt(l), groupInt(n.maxLength)))
			ok = false
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		ev.fail(quiet, "pattern", fmt.Sprintf("%s does not match pattern %s", quoteName(s), quoteName(n.pattern.String())))
		ok = false
	}
	return ok
}

func (ev *evaluation) number(n *node, v any, quiet bool) bool {
	if n.minimum == nil && n.maximum == nil && n.exclMin == nil && n.exclMax == nil && n.multipleOf == nil {
		return true
	}
	d, _ := toDecimal(v)
	ok := true
	bound := func(kw string, want *decimal) {
		ev.fail(quiet, kw, fmt.Sprintf("got %s, want %s", englishFloat(d.float64()), englishFloat(want.float64())))
		ok = false
	}
	if n.minimum != nil && d.cmp(*n.minimum) < 0 {
		bound("minimum", n.minimum)
	}
	if n.maximum != nil && d.cmp(*n.maximum) > 0 {
		bound("maximum", n.maximum)
	}
	if n.exclMin != nil && d.cmp(*n.exclMin) <= 0 {
		bound("exclusiveMinimum", n.exclMin)
	}
	if n.exclMax != nil && d.cmp(*n.exclMax) >= 0 {
		bound("exclusiveMaximum", n.exclMax)
	}
	if n.multipleOf != nil && !d.multipleOf(*n.multipleOf) {
		bound("multipleOf", n.multipleOf)
	}
	return ok
}

func (ev *evaluation) applicators(n *node, v any, quiet bool, ann *annot) bool {
	ok := true
	if n.recursiveRef != nil && !ev.inPlace(ev.recursiveTarget(n), v, quiet, ann) {
		ok = false
	}
	if n.dynRef != nil && !ev.inPlace(ev.dynamicTarget(n), v, quiet, ann) {
		ok = false
	}
	if quiet && !ok {
		return false
	}
	if n.not != nil && ev.eval(n.not, v, true, nil) {
		ev.fail(quiet, "not", "'not' failed")
		ok = false
	}
	for _, c := range n.allOf {
		if !ev.inPlace(c, v, quiet, ann) {
			ok = false
			if quiet {
				return false
			}
		}
	}
	if len(n.anyOf) > 0 && !ev.anyOf(n, v, quiet, ann) {
		ok = false
	}
	if len(n.oneOf) > 0 && !ev.oneOf(n, v, quiet, ann) {
		ok = false
	}
	if n.ifN != nil && !ev.conditional(n, v, quiet, ann) {
		ok = false
	}
	return ok
}

// recursiveTarget is what n's $recursiveRef applies: the outermost
// resource with "$recursiveAnchor": true when the target has one too.
func (ev *evaluation) recursiveTarget(n *node) *node {
	target := n.recursiveRef
	if target.recAnchor {
		for _, m := range ev.stack {
			if m.res != nil && m.res.recursive {
				return m
			}
		}
	}
	return target
}

// dynamicTarget is what n's $dynamicRef applies: the outermost resource's
// schema with the same $dynamicAnchor when the target has that anchor.
func (ev *evaluation) dynamicTarget(n *node) *node {
	target := n.dynRef
	if n.dynRefAnchor != "" && target.dynAnchor == n.dynRefAnchor {
		for _, m := range ev.stack {
			if m.res == nil {
				continue
			}
			if dn, has := m.res.dynNodes[n.dynRefAnchor]; has {
				return dn
			}
		}
	}
	return target
}

// anyOf evaluates the anyOf branches: once one matches, the others'
// leaves go (and with no annotations to collect, the rest are skipped).
func (ev *evaluation) anyOf(n *node, v any, quiet bool, ann *annot) bool {
	mark := len(ev.leaves)
	matched := false
	for _, c := range n.anyOf {
		if ev.inPlace(c, v, quiet || matched, ann) {
			matched = true
			if ann == nil {
				break
			}
		}
	}
	if matched {
		ev.leaves = ev.leaves[:mark]
	}
	return matched
}

// oneOf evaluates the oneOf branches: exactly one must match; a second
// match replaces every leaf with one naming both.
func (ev *evaluation) oneOf(n *node, v any, quiet bool, ann *annot) bool {
	mark := len(ev.leaves)
	first := -1
	for i, c := range n.oneOf {
		if ev.inPlace(c, v, quiet || first >= 0, ann) {
			if first < 0 {
				first = i
				continue
			}
			ev.leaves = ev.leaves[:mark]
			ev.fail(quiet, "oneOf", fmt.Sprintf("'oneOf' failed, subschemas %d, %d matched", first, i))
			return false
		}
	}
	if first >= 0 {
		ev.leaves = ev.leaves[:mark]
		return true
	}
	return false
}

// conditional evaluates then or else, by whether if matches.
func (ev *evaluation) conditional(n *node, v any, quiet bool, ann *annot) bool {
	if ev.inPlace(n.ifN, v, true, ann) {
		return n.thenN == nil || ev.inPlace(n.thenN, v, quiet, ann)
	}
	return n.elseN == nil || ev.inPlace(n.elseN, v, quiet, ann)
}

func (ev *evaluation) unevaluated(n *node, v any, quiet bool, ann *annot) bool {
	ok := true
	if n.unevalProps != nil {
		if obj, isObj := v.(map[string]any); isObj {
			for _, k := range sortedKeys(obj) {
				if ann.propDone(k) {
					continue
				}
				if !ev.child(n.unevalProps, obj[k], k, quiet) {
					ok = false
					if quiet {
						return false
					}
				}
			}
			ann.allProps = true
		}
	}
	if n.unevalItems != nil {
		if arr, isArr := v.([]any); isArr {
			for i := range arr {
				if ann.itemDone(i) {
					continue
				}
				if !ev.child(n.unevalItems, arr[i], strconv.Itoa(i), quiet) {
					ok = false
					if quiet {
						return false
					}
				}
			}
			ann.allItems = true
		}
	}
	return ok
}
