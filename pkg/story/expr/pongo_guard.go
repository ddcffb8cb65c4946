package expr

import (
	"fmt"

	"kitsoki/internal/lazyre"
)

// endcommentTag is an endcomment tag, group 1 its "%}" when right after.
var endcommentTag = &lazyre.Regexp{Expr: `\{%-?[ \t]*endcomment\b[ \t]*-?(%\})?`}

// checkPongoHang refuses sources on which pongo2 v6's comment tag loops
// forever ("{% endcomment x %}", or an unterminated "{% endcomment").
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
