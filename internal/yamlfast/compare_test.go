package yamlfast

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// decodeV3 decodes data as pkg/story does, with yaml.v3's Decoder.
func decodeV3(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc)
	if err != nil {
		return nil, err
	}
	return &doc, nil
}

// stripComments clears the comments of n and every node under it.
func stripComments(n *yaml.Node) {
	if n == nil {
		return
	}
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		stripComments(c)
	}
}

// diffNodes describes the first difference between want and got, "" when
// they are deep-equal.
func diffNodes(want, got *yaml.Node, path string) string {
	return diffTree(want, got, path, nil)
}

// diffTree is diffNodes' walk: at is the child indexes from the root, put
// into the path only when a difference is found.
func diffTree(want, got *yaml.Node, root string, at []int) string {
	path := func() string {
		var b strings.Builder
		b.WriteString(root)
		for _, i := range at {
			fmt.Fprintf(&b, "/%d", i)
		}
		return b.String()
	}
	if want == nil || got == nil {
		if want != got {
			return fmt.Sprintf("%s: want %v, got %v", path(), want, got)
		}
		return ""
	}
	if !sameNode(want, got) {
		return fmt.Sprintf("%s:\n want %s\n got  %s", path(), describe(want), describe(got))
	}
	if len(want.Content) != len(got.Content) || (want.Content == nil) != (got.Content == nil) {
		return fmt.Sprintf("%s: want %d children (nil %v), got %d (nil %v)", path(), len(want.Content), want.Content == nil, len(got.Content), got.Content == nil)
	}
	for i := range want.Content {
		if d := diffTree(want.Content[i], got.Content[i], root, append(at, i)); d != "" {
			return d
		}
	}
	return ""
}

// nodeFields are the fields of yaml.Node that sameNode compares, with
// Content that diffTree walks: TestSameNodeComparesEveryField fails when a
// yaml.v3 upgrade adds one.
var nodeFields = []string{"Kind", "Style", "Tag", "Value", "Anchor", "Alias", "Content", "HeadComment", "LineComment", "FootComment", "Line", "Column"}

// sameNode is reflect.DeepEqual of w and g without their Content, field
// by field (reflection under -race's pointer checks was most of the
// differential tests' time).
func sameNode(w, g *yaml.Node) bool {
	if w.Kind != g.Kind || w.Style != g.Style || w.Tag != g.Tag || w.Value != g.Value || w.Anchor != g.Anchor ||
		w.HeadComment != g.HeadComment || w.LineComment != g.LineComment || w.FootComment != g.FootComment ||
		w.Line != g.Line || w.Column != g.Column {
		return false
	}
	if w.Alias == nil || g.Alias == nil {
		return w.Alias == g.Alias
	}
	return reflect.DeepEqual(w.Alias, g.Alias)
}

func describe(n *yaml.Node) string {
	return fmt.Sprintf("kind=%v style=%v tag=%q value=%q anchor=%q alias=%v line=%d col=%d comments=%q/%q/%q",
		n.Kind, n.Style, n.Tag, n.Value, n.Anchor, n.Alias != nil, n.Line, n.Column, n.HeadComment, n.LineComment, n.FootComment)
}

// check parses in with ParseWithin and yaml.v3; it returns whether ParseWithin took
// the fast path and a description of a contract violation ("" if none).
func check(in []byte) (fast bool, why string, problem string) {
	return checkWith(in, true)
}

// checkWith is check, comparing also with yaml.Unmarshal's tree when
// unmarshal is set. yamlfast stands in for yaml.NewDecoder (yamlnode.Decode
// falls back to it; nothing decodes a story or a fixture with
// yaml.Unmarshal any more), so the corpus is compared with the decoder
// only, and the smaller differential tests keep the second comparison.
func checkWith(in []byte, unmarshal bool) (fast bool, why string, problem string) {
	got, reason := parseBytes(in)
	if strings.HasPrefix(reason, "internal error") {
		return false, reason, "ParseWithin panicked: " + reason
	}
	if reason != "" {
		return false, reason, ""
	}
	want, err := decodeV3(in)
	if errors.Is(err, io.EOF) {
		return true, "", "ParseWithin accepted a document yaml.v3 finds empty"
	}
	if err != nil {
		return true, "", "ParseWithin accepted a document yaml.v3 rejects: " + err.Error()
	}
	stripComments(want)
	if d := diffNodes(want, got, "doc"); d != "" {
		return true, "", "trees differ at " + d
	}
	if !unmarshal {
		return true, "", ""
	}
	// yaml.Unmarshal reads the same parser from a string, not a reader:
	// the same tree.
	var u yaml.Node
	if err := yaml.Unmarshal(in, &u); err != nil {
		return true, "", "ParseWithin accepted a document yaml.Unmarshal rejects: " + err.Error()
	}
	stripComments(&u)
	if d := diffNodes(&u, got, "doc"); d != "" {
		return true, "", "trees differ from yaml.Unmarshal's at " + d
	}
	return true, "", ""
}

// parseBytes is ParseWithin with the reason it declined.
func parseBytes(in []byte) (*yaml.Node, string) {
	if len(in) == 0 {
		return nil, "empty input"
	}
	doc, why, _ := parse(string(in), len(in)%2 == 0, 0) // both value modes
	return doc, why
}

// diffNodes compares every field of yaml.Node, by name (sameNode).
func TestSameNodeComparesEveryField(t *testing.T) {
	ty := reflect.TypeFor[yaml.Node]()
	var fields []string
	for field := range ty.Fields() {
		fields = append(fields, field.Name)
	}
	if !slices.Equal(fields, nodeFields) {
		t.Fatalf("yaml.Node has the fields %v; sameNode compares %v: compare the new ones", fields, nodeFields)
	}
}
