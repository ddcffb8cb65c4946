package lint

import (
	"fmt"
	"strings"
)

// maxListed is how many names one message lists: a finding that can
// stand on every line of a story must not also repeat a list as long as
// the story.
const maxListed = 20

// nameList is names joined by sep, the first maxListed of them and then
// how many more there are.
func nameList(names []string, sep string) string {
	if len(names) <= maxListed {
		return strings.Join(names, sep)
	}
	return strings.Join(names[:maxListed], sep) + fmt.Sprintf("%s… and %d more", sep, len(names)-maxListed)
}

// listOnce is the list build returns, made once per check under id:
// a list of what the story declares, asked for by every finding.
func (c *checker) listOnce(id string, build func() []string) []string {
	if l, ok := c.lists[id]; ok {
		return l
	}
	if c.lists == nil {
		c.lists = map[string][]string{}
	}
	l := build()
	c.lists[id] = l
	return l
}
