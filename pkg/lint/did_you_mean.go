package lint

import "kitsoki/internal/yamlnode"

// didYouMean is the suggestion a message ends with: "; did you mean `x`?"
// for the name of known closest to name, or "".
func didYouMean(name string, known []string) string {
	if s := yamlnode.Suggest(name, known); s != "" {
		return "; did you mean `" + s + "`?"
	}
	return ""
}
