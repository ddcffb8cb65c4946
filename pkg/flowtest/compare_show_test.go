package flowtest

import "testing"

// A failure message shows a value's <, > and & as written: an error text
// such as "t_ms must be >= 0" is not "\u003e= 0".
func TestShowKeepsHTMLCharacters(t *testing.T) {
	for v, want := range map[any]string{
		"t_ms must be >= 0, got <nil> & more": `"t_ms must be >= 0, got <nil> & more"`,
		3.5:                                   `3.5`,
	} {
		if got := show(v); got != want {
			t.Errorf("show(%#v) = %s, want %s", v, got, want)
		}
	}
	if got := show(map[string]any{"a": "<b>"}); got != `{"a":"<b>"}` {
		t.Errorf("map: %s", got)
	}
}
