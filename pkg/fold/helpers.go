package fold

import "strings"

// viewHelpers are the view functions whose intent argument upstream's fold
// renames (docs/compat/fold.md "View helpers name the child's intents").
var viewHelpers = []string{"available", "blocked", "blocked_reason", "intent_status"}

// helperCalls renames the intent of each view-helper call written
// name("intent") or name('intent') (no space inside the parentheses, as
// upstream's rewrite matches), the helper name not preceded by an
// identifier character: available("go") in a child becomes
// available("kid__go"). A name the scope does not declare, a call with
// spaces, and an intent held in a variable are left as written, as
// upstream (conformance import-view-helpers).
func (rw *rewriter) helperCalls(s string) string {
	if !strings.Contains(s, "(") {
		return s
	}
	var out strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		open := helperAt(s[i:])
		if open < 0 {
			continue
		}
		q := i + open
		if q+1 >= len(s) || s[q] != '"' && s[q] != '\'' {
			continue
		}
		end := strings.IndexByte(s[q+1:], s[q])
		if end < 0 {
			continue
		}
		end += q + 1
		if end+1 >= len(s) || s[end+1] != ')' {
			continue
		}
		name := s[q+1 : end]
		final := rw.intentName(name)
		if final != name {
			out.WriteString(s[last : q+1])
			out.WriteString(final)
			last = end
		}
		i = end
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

// helperAt is the length of the view helper name and "(" that s starts
// with, or -1.
func helperAt(s string) int {
	for _, h := range viewHelpers {
		if strings.HasPrefix(s, h) && len(s) > len(h) && s[len(h)] == '(' {
			return len(h) + 1
		}
	}
	return -1
}

// viewText is a view string rewritten: world keys and helper intents.
func (rw *rewriter) viewText(s string) string { return rw.helperCalls(rw.text(s)) }

// intentLevel is the lowest import level from the rewriter's scope up
// that answers to the intent name (nil: none, the name is kept).
func (rw *rewriter) intentLevel(name string) *node {
	x := rw.m
	for ; x.im != nil && !answers(x, name); x = x.parent {
	}
	if x.im == nil {
		return nil
	}
	return x
}

// intentName is name as the folded story spells it.
func (rw *rewriter) intentName(name string) string {
	if x := rw.intentLevel(name); x != nil {
		return x.pre + name
	}
	return name
}
