package yamlfast

import "go.yaml.in/yaml/v3"

// parseDoc is ParseWithin with no node limit: the tree, or false where it
// declines.
func parseDoc(data []byte) (*yaml.Node, bool) {
	doc, d, _ := ParseWithin(data, 0)
	return doc, d == nil
}

// parseLimit is ParseWithin reporting only whether it built a tree.
func parseLimit(data []byte, max int) (*yaml.Node, bool, *Over) {
	doc, d, over := ParseWithin(data, max)
	return doc, d == nil, over
}

// parse is the parse of src itself (detach: no value shares src's
// memory), with no switch: the tree, or why it declined (a panic, a bug,
// declines as "internal error"), or where it passed max nodes.
func parse(src string, detach bool, max int) (doc *yaml.Node, why string, over *Over) {
	doc, d, over := parseAt(src, detach, max, false)
	if d != nil {
		why = d.Why
	}
	return doc, why, over
}
