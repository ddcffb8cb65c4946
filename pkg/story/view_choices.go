package story

import "fmt"

// EachChoice calls fn with each choice element of s's view and its
// transitions' views, nth counting the choices of its view from 1.
func EachChoice(s *State, fn func(el *ViewElement, where string, nth int)) {
	each := func(v *View, arc bool, in string) {
		if v == nil {
			return
		}
		nth := 0
		for i, el := range v.Elements {
			if el.Kind != "choice" {
				continue
			}
			nth++
			prefix := ""
			if arc {
				prefix = fmt.Sprintf("intent %q: transition ", in)
			}
			fn(el, fmt.Sprintf("state %q: %sview[%d] (choice)", s.Path, prefix, i), nth)
		}
	}
	each(s.View, false, "")
	for _, on := range s.On {
		for _, t := range on.Arms {
			each(t.View(), true, on.Intent)
		}
	}
}

// TooManyChoices is the message for a view's second or later choice.
func TooManyChoices(where string) string {
	return where + ": only one choice element per view is allowed"
}
