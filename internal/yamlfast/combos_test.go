package yamlfast

import (
	"strings"
	"testing"
)

// TestCombinationsMatchYAMLv3 crosses contexts (where a node sits) with
// node forms and indentations of their continuation lines, the places
// where block structure and scalar folding interact.
func TestCombinationsMatchYAMLv3(t *testing.T) {
	t.Parallel() // reads files and parses: nothing of the process
	contexts := []struct{ head, pad string }{
		{"", ""},                // document level
		{"k: ", "  "},           // after a key
		{"k:\n  ", "  "},        // on the line after a key
		{"- ", "  "},            // sequence entry
		{"k:\n- ", "  "},        // indentless entry
		{"k:\n  - ", "    "},    // indented entry
		{"- a: 1\n  b: ", "  "}, // compact mapping value
		{"- - ", "    "},        // compact nested sequence
	}
	forms := []string{"|", "|-", "|+", "|1", "|2", "|1-", ">", ">-", ">+", ">2", "plain", "'q", "\"q", "\"e\\"}
	var n, fast int
	missed := map[string]int{}
	for _, c := range contexts {
		for _, f := range forms {
			for ind := 0; ind <= 4; ind++ {
				for _, tail := range []string{"", "z: 9\n", "- 9\n", "  z: 9\n", "\n\n"} {
					var b strings.Builder
					b.WriteString(c.head)
					sp := strings.Repeat(" ", ind)
					switch {
					case f[0] == '|' || f[0] == '>':
						b.WriteString(f + "\n" + sp + "one\n" + sp + " two\n\n" + sp + "three\n")
					case f == "plain":
						b.WriteString("one\n" + sp + "two\n\n" + sp + "three\n")
					case f == "'q":
						b.WriteString("'one\n" + sp + "two  \n\n" + sp + "three'\n")
					case f == "\"q":
						b.WriteString("\"one\n" + sp + "two\n\n" + sp + "three\"\n")
					default:
						b.WriteString("\"one\\\n" + sp + "two \\\n\n" + sp + "three\"\n")
					}
					b.WriteString(tail)
					in := b.String()
					n++
					ok, why, problem := check([]byte(in))
					if !ok {
						if _, err := decodeV3([]byte(in)); err == nil {
							missed[why]++
							if missed[why] <= 2 && testing.Verbose() {
								t.Logf("declined (%s) what yaml.v3 reads: %q", why, in)
							}
						}
					}
					if problem != "" {
						t.Errorf("%s\ninput: %q", problem, in)
					}
					if ok {
						fast++
					}
				}
			}
		}
	}
	t.Logf("%d/%d combinations took the fast path; declined but read by yaml.v3: %v", fast, n, missed)
}
