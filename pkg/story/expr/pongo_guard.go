package expr

import (
	"fmt"
	"strings"
)

// checkPongoHang refuses pongo2 sources that would make pongo2 v6 loop
// forever: its comment tag skips to "{% endcomment" and then waits for "%}"
// without consuming anything else, so "{% endcomment x %}" or an
// unterminated "{% endcomment" at the end of the input never returns. The
// check is textual and errs on the side of refusing.
func checkPongoHang(name, src string) *Error {
	i := 0
	for {
		k := strings.Index(src[i:], "{%")
		if k < 0 {
			return nil
		}
		at := i + k
		j := at + 2
		if j < len(src) && src[j] == '-' {
			j++
		}
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		i = at + 2
		if !strings.HasPrefix(src[j:], "endcomment") {
			continue
		}
		j += len("endcomment")
		if j < len(src) && isPongoIdent(src[j]) {
			continue
		}
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j < len(src) && src[j] == '-' {
			j++
		}
		if strings.HasPrefix(src[j:], "%}") {
			continue
		}
		line, col := runeCol(src, at)
		return &Error{
			Kind: KindPongo,
			Msg:  fmt.Sprintf("pongo2 %s:%d:%d: {%% endcomment %%} takes no arguments and must be closed by %%} (write it as {%% endcomment %%})", name, line, col),
			Src:  src, Line: line, Col: col,
		}
	}
}

func isPongoIdent(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}
