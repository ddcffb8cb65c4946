package lint

import "kitsoki/internal/yamlnode"

// maxSuggestions is how many names one check looks up a did-you-mean for:
// each lookup compares the name with every known one, so a story with
// thousands of unknown names among thousands of states would cost their
// product; the errors after these many keep their message, without the
// suggestion.
const maxSuggestions = 200

// suggest is yamlnode.Suggest while the check has lookups left, else "".
func (c *checker) suggest(name string, known []string) string {
	if c.suggested >= maxSuggestions {
		return ""
	}
	c.suggested++
	return yamlnode.Suggest(name, known)
}

// didYouMean is the suggestion a message ends with: "; did you mean `x`?"
// for the name of known closest to name, or "".
func (c *checker) didYouMean(name string, known []string) string {
	if s := c.suggest(name, known); s != "" {
		return "; did you mean `" + s + "`?"
	}
	return ""
}

// statePaths is st.StatePaths(), listed once per check.
func (c *checker) statePaths() []string {
	if c.paths == nil {
		c.paths = c.st.StatePaths()
	}
	return c.paths
}
