package story

import (
	"path/filepath"
	"strings"
)

// LooksLikePath reports whether a prompt: value is meant as a path, not
// inline text: a single token with a slash or a file extension. validate
// checks such a value as a file (rule prompt-root), and the engine
// refuses one outside the story's roots without looking whether it exists.
func LooksLikePath(s string) bool {
	if strings.ContainsAny(s, " \n\t") {
		return false
	}
	ext := strings.TrimPrefix(filepath.Ext(s), ".")
	return strings.Contains(s, "/") || (ext != "" && strings.IndexFunc(ext, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0)
}
