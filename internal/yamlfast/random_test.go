package yamlfast

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// gen writes random YAML-like documents: mostly what stories look like,
// with every construction the parser handles near its edges, and, now and
// then, a damaged line so that near-misses are tried too.
type gen struct {
	r *rand.Rand
	b strings.Builder
}

var (
	genWords   = []string{"a", "b", "name", "on", "go", "x y", "ключ", "é", "日本", "😀", "true", "False", "null", "~", "1", "-2", "0x1F", "1.5", ".inf", "1e3", "2001-12-14", "<<", "a:b", "a#b", "http://x/y", "-x", "yes", "0o17", "1_000", "08", "+.5", "", "Null", "NULL"}
	genQuoted  = []string{`"x"`, "\"\tx\"", "'a\tb'", `'y'`, `"a b"`, `'it''s'`, `"\t\n\\\""`, `"\u00e9\x41"`, `""`, `''`, `"# not"`, `'a: b'`, `"\U0001F600"`, `"x\` + "\n" + `  y"`, "\"p\n\n  q\"", "'r\n  s'"}
	genComment = []string{"", "", "", " # c", "  #x"}
	genNoise   = []string{":", "-", "#", "[", "]", "{", "}", ",", "'", "\"", "|", ">", " ", "\n", "  ", "\\", "?", "&", "*", "!", "---", "...", "\t", "\r\n"}
)

func (g *gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func (g *gen) scalar() string {
	switch g.r.IntN(6) {
	case 0:
		return g.pick(genQuoted)
	case 1:
		return g.pick(genWords) + " " + g.pick(genWords)
	default:
		w := g.pick(genWords)
		if w == "" {
			return "w"
		}
		return w
	}
}

func (g *gen) flow(depth int) string {
	var sb strings.Builder
	sep := func() {
		switch g.r.IntN(8) {
		case 0:
			sb.WriteString(",\n   ")
		case 1:
			sb.WriteString(" ,")
		case 2:
			sb.WriteString(",")
		default:
			sb.WriteString(", ")
		}
	}
	item := func() {
		if depth < 3 && g.r.IntN(4) == 0 {
			sb.WriteString(g.flow(depth + 1))
			return
		}
		sb.WriteString(g.scalar())
	}
	n := g.r.IntN(4)
	if g.r.IntN(2) == 0 {
		sb.WriteString("[")
		if g.r.IntN(3) == 0 {
			sb.WriteString(" ")
		}
		for i := range n {
			if i > 0 {
				sep()
			}
			item()
		}
		if n > 0 && g.r.IntN(6) == 0 {
			sb.WriteString(",")
		}
		sb.WriteString("]")
		return sb.String()
	}
	sb.WriteString("{")
	if g.r.IntN(2) == 0 {
		sb.WriteString(" ")
	}
	for i := range n {
		if i > 0 {
			sep()
		}
		sb.WriteString(g.scalar())
		sb.WriteString(": ")
		if g.r.IntN(8) != 0 {
			item()
		}
	}
	if g.r.IntN(2) == 0 {
		sb.WriteString(" ")
	}
	sb.WriteString("}")
	return sb.String()
}

func (g *gen) blockScalar(indent int) {
	g.b.WriteString(g.pick([]string{"|", ">", "|-", ">+", "|+", ">-", "|2", ">1-", "|+1", "|3"}))
	g.b.WriteString(g.pick(genComment))
	g.b.WriteString("\n")
	in := indent + 1 + g.r.IntN(3)
	for i, n := 0, 1+g.r.IntN(4); i < n; i++ {
		switch g.r.IntN(6) {
		case 0:
			g.b.WriteString(strings.Repeat(" ", g.r.IntN(in+3)) + "\n")
		case 1:
			g.b.WriteString(strings.Repeat(" ", in+1+g.r.IntN(2)) + g.pick(genWords) + "\n")
		case 2:
			g.b.WriteString(strings.Repeat(" ", in) + g.pick([]string{"\t", "\tx", "x\ty", " \t"}) + "\n")
		default:
			g.b.WriteString(strings.Repeat(" ", in) + g.pick(genWords) + " " + g.pick(genWords) + "\n")
		}
	}
}

// value writes a value after "key:" or "- " (inline) at a collection
// indented indent.
func (g *gen) value(indent, depth int) {
	switch k := g.r.IntN(10); {
	case k < 4 || depth > 4:
		g.b.WriteString(" " + g.scalar() + g.pick(genComment) + "\n")
		if g.r.IntN(8) == 0 { // a continuation line
			g.b.WriteString(strings.Repeat(" ", indent+1+g.r.IntN(3)) + g.pick(genWords) + "\n")
		}
	case k == 4:
		g.b.WriteString(" " + g.flow(0) + g.pick(append(genComment, "# tight")) + "\n")
	case k == 5:
		g.b.WriteString(" ")
		g.blockScalar(indent)
	case k == 6:
		g.b.WriteString(g.pick(genComment) + "\n")
	case k == 7:
		g.b.WriteString(g.pick(genComment) + "\n")
		g.seq(indent+g.r.IntN(3), depth+1)
	default:
		g.b.WriteString(g.pick(genComment) + "\n")
		g.mapping(indent+1+g.r.IntN(3), depth+1)
	}
}

func (g *gen) mapping(indent, depth int) {
	for i, n := 0, 1+g.r.IntN(4); i < n; i++ {
		g.extra(indent)
		g.b.WriteString(strings.Repeat(" ", indent))
		if g.r.IntN(5) == 0 {
			g.b.WriteString(g.pick(genQuoted[:4]))
		} else {
			w := g.pick(genWords)
			if w == "" {
				w = "k"
			}
			g.b.WriteString(w)
		}
		g.b.WriteString(":")
		g.value(indent, depth)
	}
}

func (g *gen) seq(indent, depth int) {
	for i, n := 0, 1+g.r.IntN(4); i < n; i++ {
		g.extra(indent)
		g.b.WriteString(strings.Repeat(" ", indent) + "-")
		switch g.r.IntN(5) {
		case 0: // compact mapping
			g.b.WriteString(" " + g.pick(genWords[:6]) + ":")
			g.value(indent+2, depth+1)
			if g.r.IntN(2) == 0 {
				g.b.WriteString(strings.Repeat(" ", indent+2) + "more:")
				g.value(indent+2, depth+1)
			}
		case 1: // compact sequence
			g.b.WriteString(" -")
			g.value(indent+2, depth+1)
		default:
			g.value(indent, depth)
		}
	}
}

// extra writes blank and comment lines now and then.
func (g *gen) extra(indent int) {
	switch g.r.IntN(8) {
	case 0:
		g.b.WriteString("\n")
	case 1:
		g.b.WriteString(strings.Repeat(" ", g.r.IntN(indent+2)) + "# note\n")
	case 2:
		g.b.WriteString(strings.Repeat(" ", g.r.IntN(6)) + "\n")
	}
}

func (g *gen) document() string {
	g.b.Reset()
	if g.r.IntN(6) == 0 {
		g.b.WriteString("---\n")
	}
	switch g.r.IntN(8) {
	case 0:
		g.seq(0, 0)
	case 1:
		g.b.WriteString(g.flow(0) + "\n")
	default:
		g.mapping(0, 0)
	}
	if g.r.IntN(10) == 0 {
		g.b.WriteString("---\n")
		g.mapping(0, 0)
	}
	s := g.b.String()
	// Damage: a few edits at random places.
	for n := g.r.IntN(3); n > 0 && len(s) > 0; n-- {
		i := g.r.IntN(len(s))
		switch g.r.IntN(3) {
		case 0:
			s = s[:i] + g.pick(genNoise) + s[i:]
		case 1:
			s = s[:i] + s[i+1:]
		default:
			if j := strings.LastIndexByte(s[:i], '\n'); j >= 0 {
				s = s[:j+1] + " " + s[j+1:]
			}
		}
	}
	return s
}

// TestRandomDocumentsMatchYAMLv3 runs generated documents (and damaged
// ones) through the differential check. YAMLFAST_RANDOM=n runs n
// documents instead of the default, YAMLFAST_SEED=s another sequence.
func TestRandomDocumentsMatchYAMLv3(t *testing.T) {
	t.Parallel() // reads files and parses: nothing of the process
	n := 4000
	if testing.Short() {
		n = 500
	}
	if s := os.Getenv("YAMLFAST_RANDOM"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := uint64(1)
	if s := os.Getenv("YAMLFAST_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	g := &gen{r: rand.New(rand.NewPCG(seed, 2))}
	fast, failures := 0, 0
	reasons := map[string]int{}
	for i := 0; i < n; i++ {
		doc := g.document()
		ok, why, problem := check([]byte(doc))
		reasons[why]++
		if problem != "" {
			failures++
			if failures <= 10 {
				t.Errorf("document %d: %s\ninput: %q", i, problem, doc)
			}
		}
		if ok {
			fast++
		}
	}
	t.Logf("%d/%d random documents took the fast path", fast, n)
	if testing.Verbose() {
		for why, k := range reasons {
			if why != "" && k > n/200 {
				t.Logf("declined %5d× %s", k, why)
			}
		}
	}
	if fast < n/4 {
		t.Errorf("only %d/%d random documents took the fast path: the generator no longer exercises the parser", fast, n)
	}
}
