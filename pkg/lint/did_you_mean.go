package lint

import "kitsoki/internal/yamlnode"

// maxSuggestions bounds the did-you-mean lookups of one check: each
// compares the name with every known one.
const maxSuggestions = 200

// suggest is yamlnode.Suggest while the check has lookups left, else "".
func (c *checker) suggest(name string, known []string) string {
	if c.suggested >= maxSuggestions {
		return ""
	}
	c.suggested++
	return yamlnode.Suggest(name, known)
}

// didYouMean is "; " and yamlnode.DidYouMean while the check has lookups
// left, else "".
func (c *checker) didYouMean(name string, known []string) string {
	if c.suggested >= maxSuggestions {
		return ""
	}
	c.suggested++
	if s := yamlnode.DidYouMean(name, known); s != "" {
		return "; " + s
	}
	return ""
}

// didYouMeanOf is didYouMean with the known names made by known, called
// only while the check has lookups left.
func (c *checker) didYouMeanOf(name string, known func() []string) string {
	if c.suggested >= maxSuggestions {
		return ""
	}
	return c.didYouMean(name, known())
}

// statePaths is st.StatePaths(), listed once per check.
func (c *checker) statePaths() []string {
	if c.paths == nil {
		c.paths = c.st.StatePaths()
	}
	return c.paths
}
