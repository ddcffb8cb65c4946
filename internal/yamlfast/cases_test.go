package yamlfast

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// trickyCases are inputs that could go wrong, each with whether ParseWithin
// must take the fast path (fast) or may decline. Whatever the flag, an
// accepted tree must equal yaml.v3's.
var trickyCases = []struct {
	name, in string
	fast     bool
}{
	// structure and indentation
	{"flat map", "a: 1\nb: two\n", true},
	{"no final newline", "a: 1\nb: two", true},
	{"nested map", "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n", true},
	{"key with empty value", "a:\nb: 1\n", true},
	{"empty value at end", "a: 1\nb:", true},
	{"empty value then comment", "a: # nothing\nb:\n", true},
	{"value on next line", "a:\n  plain\nb: 1\n", true},
	{"indentless sequence", "k:\n- 1\n- 2\nj: x\n", true},
	{"indented sequence", "k:\n  - 1\n  - 2\n", true},
	{"empty items", "- \n-\n- x\n-", true},
	{"empty item then nested", "-\n  - a\n-\n  b: 1\n", true},
	{"compact nested map", "- a: 1\n  b: 2\n- c: 3\n", true},
	{"compact nested seq", "- - a\n  - b\n- - c\n", true},
	{"compact with wide gap", "-   a: 1\n    b: 2\n", true},
	{"seq of maps under key", "states:\n  - name: x\n    on:\n      go: y\n  - name: z\n", true},
	{"indentless seq of maps", "a:\n- b: 1\n  c: 2\n- d: 3\ne: 4\n", true},
	{"deeper then back", "a:\n    b: 1\nc: 2\n", true},
	{"bad dedent", "a:\n    b: 1\n  c: 2\n", false},
	{"root indented", "  a: 1\n  b: 2\n", true},
	{"root scalar", "hello world\n", true},
	{"root multi-line scalar", "hello\nworld\n", true},
	{"root seq", "- a\n- b\n", true},
	{"duplicate keys", "a: 1\na: 2\n", true},
	{"seq then key at same level", "- a\nb: 1\n", false},
	{"key: key: value", "a: b: c\n", false},
	{"item missing dash", "x:\n  -\n  y\n", false},
	{"value at key column", "a:\nb\n", false},

	// comments
	{"comments everywhere", "# head\na: 1 # line\n# between\nb: # after colon\n  - x # item\n  # inside\n  - y\n# foot\n", true},
	{"comment right after flow", "a: {b: 1}# c\n", true},
	{"comment right after quote", "a: 'x'# c\n", true},
	{"hash inside plain", "a: b#c\nd: e #f\n", true},
	{"hash inside quoted", "a: \"#x\"\nb: '# y'\n", true},
	{"comment-only", "# only a comment\n", false},
	{"leading doc marker", "--- # c\na: 1\n", true},
	{"marker after comments", "# c\n---\na: 1\n", true},
	{"second document", "a: 1\n---\nb: 2\n", true},
	{"bad second document", "a: 1\n---\nb: [\n", false},
	{"empty second document", "a: 1\n---\n", true},
	{"document end", "a: 1\n...\n", true},
	{"content after end", "a: 1\n...\nb: 2\n", false},
	{"marker only", "---\n", false},
	{"marker then end marker", "---\n... {1e3: -2}\n", false},
	{"block scalar then marker", "a: >-\n   x\n--- \"x\": {1: }\n", false},
	{"block scalar then document", "a: |\n  x\n---\nb: 1\n", true},

	// plain scalars
	{"colon inside plain", "url: http://x.y/z\nt: 12:30\n", true},
	{"colon-space ends key", "a b: c d\n", true},
	{"spaces before colon", "a   : 1\n", true},
	{"trailing spaces", "a: b   \nc: d  \n", true},
	{"inner spaces kept", "a: b    c\n", true},
	{"multi-line plain", "a: one\n  two\n\n  three\n\n\n  four\nb: 1\n", true},
	{"multi-line plain in seq", "- one\n  two\n- three\n", true},
	{"multi-line plain indentless", "k:\n- one\n two\n", true},
	{"continuation with dash", "a: b\n  - c\n", true},
	{"continuation with colon", "a: b\n  c: d\n", false},
	{"continuation after comment", "a: b # c\n  d\n", false},
	{"comment ends plain", "a: b\n  # c\nd: e\n", true},
	{"dash plain", "a: -1\nb: -x\nc: --\n", true},
	{"question plain", "a: ?x\n", false},
	{"long key", "k" + string(make([]byte, 0)) + longKey + ": v\n", false},
	{"merge key plain", "<<: {a: 1}\n", true},
	{"indicators", "a: @x\n", false},

	// quoted scalars
	{"double escapes", `a: "tab\t nl\n q\" bs\\ sl\/ u\u00e9 U\U0001F600 x\x41 nul\0 bell\a e\e N\N _\_ L\L P\P sp\ "` + "\n", false},
	{"double escapes valid", `a: "tab\t nl\n q\" bs\\ u\u00e9 U\U0001F600 x\x41 nul\0 bell\a e\e N\N _\_ L\L P\P sp\ "` + "\n", true},
	{"single doubled quote", "a: 'it''s'\n", true},
	{"quoted keys", "\"a b\": 1\n'c: d': 2\n\"\": 3\n", true},
	{"quoted multi-line", "a: \"one\n  two\n\n  three\"\nb: 'x\n  y'\n", true},
	{"quoted escaped break", "a: \"one\\\n  two\"\n", true},
	{"quoted trailing spaces folded", "a: \"one   \n   two\"\n", true},
	{"quoted unterminated", "a: \"one\n", false},
	{"bad escape", `a: "\q"` + "\n", false},
	{"surrogate escape", `a: "\ud800"` + "\n", false},
	{"quoted then junk", "a: \"x\" y\n", false},

	// block scalars
	{"literal", "a: |\n  line 1\n  line 2\nb: 1\n", true},
	{"literal keep", "a: |+\n  x\n\n\nb: 1\n", true},
	{"literal strip", "a: |-\n  x\n\n\nb: 1\n", true},
	{"literal keep at end", "a: |+\n  x\n\n", true},
	{"folded", "a: >\n  one\n  two\n\n  three\n    more\n  four\nb: 1\n", true},
	{"folded strip keep", "a: >-\n  x\n  y\nb: >+\n  z\n\n", true},
	{"indentation indicator", "a: |2\n    x\n  y\nb: |-1\n  z\n", true},
	{"indicator order", "a: |2-\n   x\nb: >+2\n   y\n", true},
	{"indicator zero", "a: |0\n  x\n", false},
	{"block with comment", "a: | # c\n  x\n", true},
	{"block with tight comment", "a: |#c\n  x\nb: >-2#c\n   y\n", true},
	{"block hash content", "a: |\n  # not a comment\n  x\n# a comment\nb: 1\n", true},
	{"block more-indented first", "a: |\n    x\n  y\n", false},
	{"block leading empty lines", "a: |\n\n\n  x\n", true},
	{"block leading wide empty", "a: |\n     \n  x\n", false},
	{"block empty", "a: |\nb: 1\n", true},
	{"block at end no newline", "a: |\n  x", true},
	{"block header at end", "a: |", true},
	{"block in seq", "- |\n  x\n- >\n  y\n", true},
	{"block root", "|\n  x\n", true},
	{"block spaces lines", "a: |\n  x\n     \n  y\n", true},

	// flow collections
	{"flow empty", "a: []\nb: {}\n", true},
	{"flow seq", "a: [x, \"y\", 'z', 1, true, ~]\n", true},
	{"flow map", "a: {x: 1, 'y': 2, \"z\": [3]}\n", true},
	{"flow nested", "a: { name: go, slots: { direction: south } }\n", true},
	{"flow multi-line", "a: [x,\n  y, # c\n  z]\nb: 1\n", true},
	{"flow trailing comma", "a: [1, 2, ]\nb: {c: 1,}\n", true},
	{"flow empty value", "a: {x: , y: 1, z: }\n", true},
	{"flow adjacent value", "a: {\"x\":1}\n", true},
	{"flow colon in plain", "a: [a:b, http://x]\n", true},
	{"flow single pair", "a: [x: 1]\n", false},
	{"flow key only", "a: {x, y}\n", false},
	{"flow unterminated", "a: [x\n", false},
	{"flow as key", "[a]: b\n", false},
	{"flow root", "[a, b]\n", true},
	{"flow in seq", "- {a: 1}\n- [b]\n", true},
	{"flow dash", "a: [-1, -x]\n", true},
	{"flow question", "a: [?x]\n", false},

	// tags of plain scalars
	{"nulls", "a: ~\nb: null\nc: Null\nd: NULL\ne: nULL\nf:\n", true},
	{"bools", "a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\ng: yes\nh: on\ni: tRUE\n", true},
	{"ints", "a: 0\nb: -1\nc: +2\nd: 0x1F\ne: 0o17\nf: 0b101\ng: 1_000\nh: 017\ni: 08\nj: 99999999999999999999\nk: -0b11\nl: -0o7\nm: 0B1\nn: 0X1\n", true},
	{"floats", "a: 1.5\nb: -.5\nc: 1e3\nd: .inf\ne: -.Inf\nf: .NaN\ng: 1.\nh: +1.5e-3\ni: 1e400\nj: .5e999\nk: 1_0.5\nl: 0x1p-2\nm: .e1\n", true},
	{"timestamps", "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10\nd: 2001-1-2\ne: 2001-13-45\nf: 12345-01-01\n", true},
	{"strings like numbers", "a: 1.2.3\nb: 1e\nc: +\nd: -x\ne: 0x\nf: _1\ng: 1__2\n", true},
	{"merge", "<<: x\na: <<\nb: '<<'\n", true},

	// characters and positions
	{"unicode columns", "ключ: значение\n\"é\": [ü, 'ö', {ß: ñ}]\n- x\n", false},
	{"unicode map", "ключ: значение\n\"é\": [ü, 'ö', {ß: ñ}]\nz: 日本語: no\n", false},
	{"unicode ok", "ключ: значение\n\"é\": [ü, 'ö', {ß: ñ}]\nz: 日本語 #c\n", true},
	{"emoji", "a: \"😀\" # x\nb: [😀, x]\n", true},
	{"crlf", "a: |\r\n  foo\r\n  bar\r\nb: \"x\r\n  y\"\r\nc: d\r\n  e\r\n", true},
	{"lone cr", "a: 1\rb: 2\n", false},
	{"bom", "\ufeffa: 1\n", true},
	{"bom twice", "\ufeff\ufeffa: 1\n", false},
	{"tab", "a:\t1\n", false},
	{"tab in literal", "a: |\n  \tgo build ./...\n  x\ty\t\n\t\nb: 1\n", false},
	{"tab first in literal", "a: |\n  \tgo build ./...\n  x\ty\t\nb: 1\n", false},
	{"tab in literal content", "a: |\n  build:\n  \tgo build ./...\n  x\ty\t\nb: 1\n", true},
	{"tab first in folded", "a: >\n  one\n  \ttwo\n  three\n\n  \tfour\n  five\n", true},
	{"tab in block indentation", "a: |\n \tx\n", false},
	{"tab in explicit indentation", "a: |2\n \tx\n", false},
	{"tab after explicit indentation", "a: |1\n \tx\n", true},
	{"tab in one-line quoted", "a: \"x\ty\"\nb: 'p\tq'\n", true},
	{"tab in folded quoted", "a: \"x\t\n  y\"\n", false},
	{"tab in comment", "# a\tb\na: 1 # c\td\nb: | # e\tf\n  x\n", true},
	{"tab in plain", "a: x\ty\n", false},
	{"tab before comment", "a: 1\t# c\n", false},
	{"tab indent", "a:\n\tb: 1\n", false},
	{"nel", "a: b\u0085c\n", false},
	{"control", "a: \x01\n", false},
	{"invalid utf8", "a: \xff\n", false},
	{"anchor", "a: &x 1\nb: *x\n", false},
	{"tag", "a: !!str 1\n", false},
	{"directive", "%YAML 1.2\n---\na: 1\n", false},
	{"complex key", "? a\n: b\n", false},
	{"empty", "", false},
}

const longKey = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" +
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

func TestTrickyCases(t *testing.T) {
	for _, tc := range trickyCases {
		fast, why, problem := check([]byte(tc.in))
		if problem != "" {
			t.Errorf("%s: %s\ninput: %q", tc.name, problem, tc.in)
			continue
		}
		if tc.fast && !fast {
			t.Errorf("%s: declined (%s), want the fast path\ninput: %q", tc.name, why, tc.in)
		}
		if !tc.fast && fast {
			t.Logf("%s: took the fast path (the table allows declining)", tc.name)
		}
	}
}

// TestCheckChars compares the word-at-a-time character check with the
// plain rule on every byte value at every offset of a word.
func TestCheckChars(t *testing.T) {
	plain := func(s string) bool {
		for _, r := range s {
			switch {
			case r == utf8.RuneError, r < ' ' && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
				r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
				return false
			}
		}
		return true
	}
	for c := range 256 {
		for at := range 17 {
			b := []byte("abcdefgh\nijklmnop: qrstuvwx")
			b[at] = byte(c)
			s := string(b)
			why, _ := checkChars(s)
			if got, want := why == "", plain(s) && utf8.ValidString(s); got != want {
				t.Errorf("byte %#x at %d: checkChars ok=%v, want %v", c, at, got, want)
			}
		}
	}
	for _, s := range []string{"é\u0085", "ab\u2028cdefghijk", "abcdefgh\ufeff", "\U0001F600abcdefgh\x01"} {
		if why, _ := checkChars(s); why == "" {
			t.Errorf("%q passed", s)
		}
	}
}

// TestParseDetachesLargeInput: the values of a large document share no
// memory with the input (overwriting it leaves the tree as yaml.v3 reads
// the original), and a small document's tree matches too.
func TestParseDetachesLargeInput(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("states:\n")
	for i := 0; sb.Len() < 2*detachBytes; i++ {
		fmt.Fprintf(&sb, "  s%d:\n    say: 'hello %d'\n    on: {go: [\"t%d\"]}\n    text: |\n      line %d\n", i, i, i, i)
	}
	for _, src := range []string{sb.String(), "a: b\nc: 'd'\n"} {
		want, err := decodeV3([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		stripComments(want)
		data := []byte(src)
		got, ok := parseDoc(data)
		if !ok {
			t.Fatalf("declined a %d-byte document", len(src))
		}
		for i := range data {
			data[i] = 'x'
		}
		if d := diffNodes(want, got, "doc"); d != "" {
			t.Errorf("%d-byte document: after overwriting the input: %s", len(src), d)
		}
	}
}

// TestColAt compares the word-at-a-time character count with
// utf8.RuneCountInString over every span of a mixed string.
func TestColAt(t *testing.T) {
	s := "ab é日本😀 x: ключ — значение ü" + strings.Repeat("z", 9) + "日本語"
	for i := 0; i <= len(s); i++ {
		for j := i; j <= len(s); j++ {
			if !utf8.RuneStart(s[i%len(s)]) && i < len(s) || j < len(s) && !utf8.RuneStart(s[j]) {
				continue
			}
			if got, want := colAt(s, i, j), utf8.RuneCountInString(s[i:j]); got != want {
				t.Fatalf("colAt(%d, %d) = %d, want %d", i, j, got, want)
			}
		}
	}
}
