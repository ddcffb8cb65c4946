package eval

import (
	"bytes"
	"encoding/json"
	"fmt"

	"kitsoki/internal/jsonvalue"
)

// compareAnswer applies a deterministic comparator (reference C.8) and
// returns whether the answer passes, else why; judge is unavailable here.
func compareAnswer(c Comparator, expect map[string]any, actual any) (bool, string) {
	expectV := jsonvalue.RoundTrip(expect)
	actual = jsonvalue.RoundTrip(actual)
	switch c.Kind {
	case "exact":
		if jsonEqual(expectV, actual) {
			return true, ""
		}
		return false, "actual does not exactly match expected"
	case "field_subset":
		if subset(expectV, actual) {
			return true, ""
		}
		return false, "actual does not contain expected field subset"
	case "artifact_diff":
		if subset(expectV, actual) {
			return true, ""
		}
		return false, "artifact does not match expected accepted subset"
	case "enum":
		f := enumField(c, expect)
		if f == "" {
			return false, "enum comparator needs a field or single expected key"
		}
		var got any
		if m, ok := actual.(map[string]any); ok {
			got = m[f]
		}
		want := expect[f] // a missing value prints as <nil>
		if fmt.Sprint(got) == fmt.Sprint(want) {
			return true, ""
		}
		return false, fmt.Sprintf("field %q got %v want %v", f, got, want)
	case "judge":
		return false, "judge comparator is live-gated and has no deterministic offline result"
	}
	return false, fmt.Sprintf("unsupported comparator %q", c.Kind)
}

// enumField is comparator.field, else expect's single key, else the first
// of intent, verdict, decision, status in expect, else "".
func enumField(c Comparator, expect map[string]any) string {
	if c.Field != "" {
		return c.Field
	}
	if len(expect) == 1 {
		for k := range expect {
			return k
		}
	}
	for _, k := range []string{"intent", "verdict", "decision", "status"} {
		if _, ok := expect[k]; ok {
			return k
		}
	}
	return ""
}

// subset: maps need every expected key subset-equal; arrays compare by
// position over the expected prefix; scalars are JSON-equal.
func subset(expect, actual any) bool {
	switch e := expect.(type) {
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return false
		}
		for k, ev := range e {
			av, ok := a[k]
			if !ok || !subset(ev, av) {
				return false
			}
		}
		return true
	case []any:
		a, ok := actual.([]any)
		if !ok || len(e) > len(a) {
			return false
		}
		for i := range e {
			if !subset(e[i], a[i]) {
				return false
			}
		}
		return true
	}
	return jsonEqual(expect, actual)
}

func jsonEqual(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
