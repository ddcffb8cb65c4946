package yamlnode

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// PrintedText is a decoded scalar as the text upstream's decoder makes of
// it for a text field: a string as it is, null empty, a bool true/false, a
// number as Go prints it (1.0 is "1", 1000000.0 "1e+06", .inf "+Inf");
// ok is false for a mapping, a list or anything else.
func PrintedText(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case int, int64, uint64, float64:
		return fmt.Sprint(x), true
	}
	return "", false
}

// TextAsPrinted retags n, when it is a number or a bool scalar, as the
// string [PrintedText] makes of its value, so that a Decode into a text
// field reads what upstream's decoder reads there (not the text as
// written). Other nodes are left as they are.
func TextAsPrinted(n *yaml.Node) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return
	}
	switch n.ShortTag() {
	case "!!int", "!!float", "!!bool":
	default:
		return
	}
	var v any
	if n.Decode(&v) != nil {
		return
	}
	if text, ok := PrintedText(v); ok {
		n.Tag, n.Value, n.Style = "!!str", text, 0
	}
}
