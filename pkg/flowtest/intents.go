package flowtest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// Intent fixture defaults (flow-format.md §8): one run per input, a 0.90
// pass rate.
const (
	defaultIntentRuns    = 1
	defaultIntentMinRate = 0.90
)

// maxIntentRoutes bounds the routes one file's fixtures ask for (runs
// times inputs, summed): each is a harness call, made one by one.
const maxIntentRoutes = 1_000_000

// IntentSuite is one `test_kind: intents` document: the fixtures of one
// state.
type IntentSuite struct {
	File  string
	Line  int // line of the document's first key
	State string
	// Runs and MinPassRate are the document's defaults: (0 = unset).
	Runs        int
	MinPassRate float64
	Fixtures    []*IntentFixture
}

// IntentFixture is one fixture of an [IntentSuite]: phrasings expected to
// route to one intent, to fail validation, or to fall through.
type IntentFixture struct {
	ID    string
	State string
	File  string
	Line  int
	// HasIntent is set by an intent: block: the answer must be Intent with
	// each of Slots; without one any answer that validates passes.
	HasIntent bool
	Intent    string
	Slots     map[string]any
	Inputs    []string
	// Runs and MinPassRate are the effective values.
	Runs        int
	MinPassRate float64
	// ExpectFailure lists the rejection codes that pass ("clarify": any).
	ExpectFailure *ExpectFailure
	// ExpectFallthrough passes when the answer validates, whatever it is.
	ExpectFallthrough bool
}

// ExpectFailure is an intent fixture's expect_failure: block.
type ExpectFailure struct {
	AnyOf []string `yaml:"any_of"`
}

// rawIntentDoc is the YAML shape of an intents document; unknown keys are
// ignored, as upstream's decoder does.
type rawIntentDoc struct {
	TestKind string `yaml:"test_kind"`
	State    string `yaml:"state"`
	Defaults struct {
		Runs        looseInt   `yaml:"runs"`
		MinPassRate looseFloat `yaml:"min_pass_rate"`
	} `yaml:"defaults"`
	Fixtures []struct {
		ID     string `yaml:"id"`
		Intent *struct {
			Name  string         `yaml:"name"`
			Slots map[string]any `yaml:"slots"`
		} `yaml:"intent"`
		Slots             map[string]any `yaml:"slots"`
		Inputs            inputList      `yaml:"inputs"`
		Runs              looseInt       `yaml:"runs"`
		MinPassRate       looseFloat     `yaml:"min_pass_rate"`
		ExpectFailure     *ExpectFailure `yaml:"expect_failure"`
		ExpectFallthrough bool           `yaml:"expect_fallthrough"`
		Line              int            `yaml:"-"`
	} `yaml:"fixtures"`
}

// ParseIntents reads the intents documents of one file; an error names
// the file and line.
func ParseIntents(file string, data []byte) ([]*IntentSuite, error) {
	if len(data) > maxFixtureBytes {
		return nil, fmt.Errorf("%s: intent fixture file is %d bytes, more than the %d-byte limit; split it into several files", file, len(data), maxFixtureBytes)
	}
	var out []*IntentSuite
	routes, aliasText := 0, yamlnode.MaxAliasText
	for _, pc := range split(data) {
		// within the node limit: yaml.v3 alone would build a document of any size whole
		node, over, err := yamlnode.Decode(pc.src, yamlnode.MaxTreeNodes)
		if over != nil {
			return nil, refuseIntents(pc.pos(file, &yaml.Node{Line: over.Line, Column: over.Col}), "intent fixture: %s", yamlnode.TreeNodesMsg("intent fixture document", yamlnode.MaxTreeNodes, "split its fixtures across files"))
		}
		if err != nil && !errors.Is(err, io.EOF) {
			line, msg := yamlnode.ErrLine(err) // (yaml.v3 names no column)
			return nil, refuseIntents(Pos{File: file, Line: max(line, 1) + pc.line, Col: 1}, "YAML does not parse: %s", msg)
		}
		if err != nil || len(node.Content) == 0 {
			continue // an empty or comment-only document
		}
		// upstream decodes every document before it reads test_kind, so a
		// malformed one refuses the file whatever its kind (intent-docs)
		root := node.Content[0]
		if at := yamlnode.AliasTextOver(root, &aliasText); at != nil {
			// each use repeats the text into the routing and the report
			at := pc.pos(file, at)
			return nil, &IntentsRefusal{File: file, Line: at.Line, Col: at.Col, Aliases: true,
				Msg: "intent fixture: " + yamlnode.AliasTextMsg("file", "split the file")}
		}
		if k := yamlnode.ComplexKey(root); k != nil {
			return nil, refuseIntents(pc.pos(file, k), "intent fixture: %s", yamlnode.ComplexKeyMsg("intent fixture"))
		}
		if root.Kind != yaml.MappingNode {
			return nil, refuseIntents(pc.pos(file, root), "intent fixture: the document is %s, where a mapping (test_kind: intents, state:, fixtures:) is expected", nodeShape(root))
		}
		if err := expandIntentMerges(file, pc, root); err != nil {
			return nil, err
		}
		yamlnode.TextTimestamps(root) // slot values keep their text, as upstream's
		fxs := yamlnode.Get(root, "fixtures")
		if fxs != nil {
			for _, f := range fxs.Content {
				if in := yamlnode.Get(f, "intent"); in != nil {
					// 1e3, 08: text, as in a recording (yaml-numbers.md)
					yamlnode.TextPointlessFloats(yamlnode.Get(in, "slots"))
				}
			}
		}
		var raw rawIntentDoc
		if err := root.Decode(&raw); err != nil {
			line, msg := decodeErrLine(err)
			at := Pos{File: file, Line: line + pc.line, Col: 1}
			if key, n := keyAtLine(root, line, msg); n != nil {
				msg, at = key+": "+msg, pc.pos(file, n)
			}
			return nil, refuseIntents(at, "intent fixture: %s", msg)
		}
		if raw.TestKind != "intents" {
			continue
		}
		s := &IntentSuite{File: file, Line: root.Line + pc.line, State: raw.State, Runs: int(raw.Defaults.Runs), MinPassRate: float64(raw.Defaults.MinPassRate)}
		col := pc.pos(file, root).Col
		for i, rf := range raw.Fixtures {
			fx := &IntentFixture{ID: rf.ID, State: raw.State, File: file, Line: s.Line, Inputs: []string(rf.Inputs),
				ExpectFailure: rf.ExpectFailure, ExpectFallthrough: rf.ExpectFallthrough}
			if fxs != nil && fxs.Kind == yaml.SequenceNode && i < len(fxs.Content) {
				at := pc.pos(file, fxs.Content[i])
				fx.Line, col = at.Line, at.Col
			}
			if rf.Intent != nil {
				fx.HasIntent, fx.Intent = true, rf.Intent.Name
				fx.Slots, _ = jsonvalue.Normalize(rf.Intent.Slots).(map[string]any)
			}
			fx.Runs = firstPositive(int(rf.Runs), int(raw.Defaults.Runs), defaultIntentRuns)
			fx.MinPassRate = firstPositive(float64(rf.MinPassRate), float64(raw.Defaults.MinPassRate), defaultIntentMinRate)
			if routes += min(fx.Runs, maxIntentRoutes+1) * min(len(fx.Inputs), maxIntentRoutes+1); routes > maxIntentRoutes {
				return nil, refuseIntents(Pos{File: file, Line: fx.Line, Col: col}, "intent fixture: fixtures[%d]: the file's fixtures route their inputs more than %d times (runs times inputs); lower runs", i, maxIntentRoutes)
			}
			s.Fixtures = append(s.Fixtures, fx)
		}
		out = append(out, s)
	}
	return out, nil
}

// IntentsRefusal is why `kitsoki test intents` refuses an intents file
// (ParseIntents): the file, the line and column (1-based) and the message.
type IntentsRefusal struct {
	File string
	Line int
	Col  int
	Msg  string
	// Aliases: the file's aliases repeat more text than a file may
	// (yamlnode.MaxAliasText), so nothing more of it is to be walked
	Aliases bool
}

func (e *IntentsRefusal) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

func refuseIntents(at Pos, format string, args ...any) error {
	return &IntentsRefusal{File: at.File, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, args...)}
}

// keyAtLine is the path (fixtures[0].runs) of the value on line that the
// decode error msg refuses, and that value; "" and nil when none is.
func keyAtLine(n *yaml.Node, line int, msg string) (string, *yaml.Node) {
	_, refused, ok := strings.Cut(msg, "cannot unmarshal ")
	if !ok {
		return "", nil
	}
	tag, rest, _ := strings.Cut(refused, " ")
	val, quoted := "", strings.HasPrefix(rest, "`")
	if quoted {
		val, _, _ = strings.Cut(rest[1:], "`")
	}
	is := func(v *yaml.Node) bool {
		return v.Line == line && v.ShortTag() == tag && (!quoted || v.Value == val || termsafe.Line(v.Value) == val || strings.HasSuffix(val, "...") && strings.HasPrefix(v.Value, strings.TrimSuffix(val, "...")))
	}
	// walk looks below n, at path at, at a mapping's values and a list's items
	var walk func(n *yaml.Node, at string) (string, *yaml.Node)
	walk = func(n *yaml.Node, at string) (string, *yaml.Node) {
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", at, i)
			if n.Kind == yaml.MappingNode {
				if i%2 == 0 {
					continue // a key
				}
				p = dotted(at, n.Content[i-1].Value)
			}
			if is(c) {
				return p, c
			}
			if k, v := walk(c, p); v != nil {
				return k, v
			}
		}
		return "", nil
	}
	return walk(n, "")
}

// nodeShape names the YAML shape of a document that is no mapping.
func nodeShape(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.ShortTag() == "!!null":
		return "null"
	}
	return "a scalar (" + termsafe.Line(n.Value) + ")"
}

// decodeErrLine pulls the first "line N: msg" out of a yaml.v3 decode
// error ("unmarshal errors:\n  line N: ...").
func decodeErrLine(err error) (int, string) {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		msg = firstLine(msg[i:])
	}
	line, msg := yamlnode.ErrLine(errors.New(msg))
	return max(line, 1), plainGoType(msg)
}

// plainGoType names the Go type ending a decode error as the YAML shape
// wanted (yamlnode.Shape, with the lists a fixture holds named closer).
func plainGoType(msg string) string {
	i := strings.LastIndex(msg, " into ")
	if i < 0 {
		return msg
	}
	typ, shape := msg[i+len(" into "):], ""
	switch {
	case strings.HasPrefix(typ, "[]string"):
		shape = "a list of strings"
	case strings.HasPrefix(typ, "[]"):
		shape = "a list of mappings"
	case strings.HasPrefix(typ, "struct"), strings.HasPrefix(typ, "*struct"), strings.HasPrefix(typ, "map["), strings.HasPrefix(typ, "flowtest."), strings.HasPrefix(typ, "*flowtest."):
		shape = "a mapping"
	case strings.Contains(typ, " "): // "int (overflow)": the value, not its type, is wrong
		return msg
	default:
		shape = yamlnode.Shape(typ)
	}
	return msg[:i] + " where " + shape + " is expected"
}

func firstPositive[T int | float64](vs ...T) T {
	for _, v := range vs {
		if v > 0 {
			return v
		}
	}
	return 0
}

// IntentsGlob is the default intent fixture glob of app:
// <app dir>/intents/*.yaml, else ./intents/*.yaml when that exists.
func IntentsGlob(app string) string {
	return localGlob(app, "intents", filepath.Join(story.QuoteGlob(filepath.Dir(app)), "intents", "*.yaml"))
}

// ErrNoIntentFixtures is returned by [LoadIntents] when the glob matches
// no file.
var ErrNoIntentFixtures = errors.New("no intent fixtures matched")

// LoadIntents reads every intents document of the files glob matches, in
// byte order, through root ([StoryRoot]); only, when set, keeps the
// suites of that state.
func LoadIntents(root, glob, only string) ([]*IntentSuite, error) {
	if _, err := filepath.Match(glob, ""); err != nil {
		return nil, fmt.Errorf("--intents %q: %v", glob, err)
	}
	r := safefile.NewRoot(globRoot(root, glob))
	defer r.Close()
	files, outside, err := story.Glob(r, glob)
	if err != nil {
		return nil, fmt.Errorf("--intents %q: %v", glob, err)
	}
	if len(outside) > 0 {
		return nil, errors.New(story.OutsideRootMessage(r, "intents directory", outside[0], &os.PathError{Op: "read", Path: outside[0], Err: safefile.ErrOutsideRoot}))
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w %q", ErrNoIntentFixtures, glob)
	}
	slices.Sort(files)
	var out []*IntentSuite
	for _, f := range files {
		data, err := readIn(r, f)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", f, strings.TrimPrefix(confinedErr(r, "intents file", f, err).Error(), "cannot read the fixture: "))
		}
		ss, err := ParseIntents(f, data)
		if err != nil {
			return nil, err
		}
		for _, s := range ss {
			if only == "" || s.State == only {
				out = append(out, s)
			}
		}
	}
	return out, nil
}
