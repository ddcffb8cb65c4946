package expr

import (
	"fmt"

	"kitsoki/internal/lazyre"
)

// endcommentTag is an endcomment tag: its opening ("{%", "{%-"), the
// name as a whole word, and the "%}" closing it right after spaces and an
// optional "-" (group 1, absent when something else follows).
var endcommentTag = &lazyre.Regexp{Expr: `\{%-?[ \t]*endcomment\b[ \t]*-?(%\})?`}

// checkPongoHang refuses pongo2 sources that would make pongo2 v6 loop
// forever: its comment tag skips to "{% endcomment" and then waits for "%}"
// without consuming anything else, so "{% endcomment x %}" or an
// unterminated "{% endcomment" at the end of the input never returns. The
// check is textual and errs on the side of refusing.
func checkPongoHang(name, src string) *Error {
	for _, m := range endcommentTag.Get().FindAllStringSubmatchIndex(src, -1) {
		if m[2] >= 0 {
			continue
		}
		line, col := runeCol(src, m[0])
		return &Error{
			Kind: KindPongo,
			Msg:  fmt.Sprintf("pongo2 %s:%d:%d: {%% endcomment %%} takes no arguments and must be closed by %%} (write it as {%% endcomment %%})", name, line, col),
			Src:  src, Line: line, Col: col,
		}
	}
	return nil
}
