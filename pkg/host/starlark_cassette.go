package host

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/recost"
	"kitsoki/internal/yamlnode"
)

// HTTPCassette answers a Starlark script's ctx.http calls from recorded
// exchanges (a flow fixture's starlark_http_cassette: kind: http_cassette).
// It is safe for concurrent use; as upstream's, each exchange is played
// once, the first unplayed one that matches, and a request with none left
// is a miss (conformance star-http).
type HTTPCassette struct {
	Path      string
	Exchanges []HTTPExchange

	replayLog        // log: {method, url, status} of every request answered
	record    string // recordNone, recordNewEpisodes, recordAll
	fileMode  string // the file's own record_mode, which Flush keeps
	dirty     bool
}

// replayLog is what a cassette played: which entries, and the calls it
// answered, in order. One cassette serves a whole fixture, so its log is
// the fixture's traffic so far: upstream's __http_exchanges and
// __inspections sum up the whole fixture, not one call (conformance
// star-inspect).
type replayLog struct {
	mu     sync.Mutex
	played []bool
	log    []any
}

// Log is every call the cassette answered so far in its fixture.
func (r *replayLog) Log() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log)
}

// HTTPExchange is one recorded request/response.
type HTTPExchange struct {
	Method     string
	MethodText string         // as the cassette writes it, for the miss list (upstream's)
	URL        string         // exact match ("" = any)
	URLPattern *regexp.Regexp // regexp searched in the URL (nil = none)
	urlInsts   int            // the instructions URLPattern compiles to (recost)
	Status     int
	Headers    map[string]string
	Body       string
	Line       int
	// fromRequest: written under request:, where upstream reads no
	// url_pattern (an exchange without url matches any) and the miss list
	// prints "METHOD url" untrimmed.
	fromRequest bool
}

// maxCassette bounds a cassette file.
const maxCassette = 64 << 20

type rawCassette struct {
	Kind       string `yaml:"kind"`
	RecordMode string `yaml:"record_mode"`
	Exchanges  []struct {
		Match   *rawRequest  `yaml:"match"`
		Request *rawRequest  `yaml:"request"`
		Resp    *rawResponse `yaml:"response"`
	} `yaml:"exchanges"`
}

type rawResponse struct {
	Status  httpStatus     `yaml:"status"`
	Headers map[string]any `yaml:"headers"`
	Body    any            `yaml:"body"`
}

type rawRequest struct {
	Method     string `yaml:"method"`
	URL        string `yaml:"url"`
	URLPattern string `yaml:"url_pattern"`
}

// ParseHTTPCassette parses a kind: http_cassette file; path labels errors.
// record_mode (none, once, new_episodes, all) sets the record mode; see
// SetRecordMode and Flush. Its url_patterns compile within patterns: the
// story's budget (story.Story.Patterns), which every cassette and fixture
// of the story shares; nil, each within recost.MaxInsts alone.
func ParseHTTPCassette(path string, data []byte, patterns *recost.Budget) (*HTTPCassette, error) {
	var raw rawCassette
	node, err := decodeCassette(path, "http", data, &raw, "")
	if err != nil {
		return nil, err
	}
	if raw.Kind != "http_cassette" {
		return nil, fmt.Errorf("%s: kind is %q; an http cassette says kind: http_cassette", path, raw.Kind)
	}
	switch raw.RecordMode {
	case "", recordNone, recordOnce, recordNewEpisodes, recordAll:
	default:
		return nil, fmt.Errorf("%s: record_mode %q is not one of none, once, new_episodes, all", path, raw.RecordMode)
	}
	lines := listLines(node, "exchanges")
	c := &HTTPCassette{Path: path}
	for i, e := range raw.Exchanges {
		var line int
		where := fmt.Sprintf("%s: exchanges[%d]", path, i)
		if i < len(lines) {
			line = lines[i]
			where = fmt.Sprintf("%s:%d: exchanges[%d]", path, line, i)
		}
		// upstream's order: request: wins over match:. As upstream, an
		// exchange with neither matches any request, one without a url or
		// url_pattern any url, and one without a response (or a status)
		// answers status 0 (conformance star-http-lenient-exchange).
		req := cmp.Or(e.Request, e.Match, &rawRequest{})
		resp := cmp.Or(e.Resp, &rawResponse{})
		ex := HTTPExchange{Method: strings.ToUpper(strings.TrimSpace(req.Method)), MethodText: req.Method, URL: req.URL, Status: int(resp.Status), Line: line, fromRequest: e.Request != nil}
		if req.URLPattern != "" && !ex.fromRequest { // upstream reads no url_pattern under request:
			re, err := patterns.Compile(req.URLPattern)
			if err != nil {
				return nil, fmt.Errorf("%s: url_pattern %q is not a valid regular expression: %v", where, req.URLPattern, err)
			}
			ex.URLPattern, ex.urlInsts = re, patterns.Insts(req.URLPattern)
		}
		headers, err := headerTexts(resp.Headers)
		if err != nil {
			return nil, fmt.Errorf("%s: response.headers: %v", where, err)
		}
		ex.Headers = headers
		if text, ok := yamlnode.PrintedText(resp.Body); ok {
			ex.Body = text
		} else {
			j, err := json.Marshal(jsonvalue.Normalize(resp.Body))
			if err != nil {
				return nil, fmt.Errorf("%s: response.body does not encode as JSON: %v", where, err)
			}
			ex.Body = string(j)
		}
		c.Exchanges = append(c.Exchanges, ex)
	}
	c.played = make([]bool, len(c.Exchanges))
	c.fileMode = raw.RecordMode
	if raw.RecordMode != "" && raw.RecordMode != recordNone && raw.RecordMode != recordOnce {
		if err := c.SetRecordMode(raw.RecordMode); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// decodeCassette decodes a Starlark cassette file (what names its kind in
// messages) into raw, bounded in size; hint follows a decoding error.
func decodeCassette(path, what string, data []byte, raw any, hint string) (*yaml.Node, error) {
	if len(data) > maxCassette {
		return nil, fmt.Errorf("%s: %s cassette is larger than %d bytes", path, what, maxCassette)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the %s cassette is empty", path, what)
	}
	var node yaml.Node
	if err := yamlnode.Unmarshal(data, &node); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if at := yamlnode.AliasTextFileOver(&node); at != nil {
		return nil, fmt.Errorf("%s:%d: %s", path, at.Line, yamlnode.AliasTextMsg(what+" cassette", ""))
	}
	if k := yamlnode.ComplexKey(&node); k != nil {
		return nil, fmt.Errorf("%s:%d:%d: %s", path, k.Line, k.Column, yamlnode.ComplexKeyMsg(what+" cassette"))
	}
	if k := yamlnode.FlowKeyTab(&node, data); k != nil {
		return nil, fmt.Errorf("%s:%d:%d: %s", path, k.Line, k.Column, yamlnode.FlowKeyTabMsg(what+" cassette"))
	}
	// upstream's parser and decoder refuse a key given twice, the whole file
	if at, msg := yamlnode.RepeatedKey(&node, reflect.TypeOf(raw), what+" cassette"); at != nil {
		return nil, fmt.Errorf("%s:%d:%d: %s", path, at.Line, at.Column, msg)
	}
	yamlnode.TextPointlessFloats(&node)
	yamlnode.TextTimestamps(&node) // a plain date is its text, as upstream
	if err := node.Decode(raw); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the %s cassette is empty", path, what)
		}
		return nil, fmt.Errorf("%s: %v%s", path, err, hint)
	}
	return &node, nil
}

// listLines returns the line of each item of the top-level list key.
func listLines(n *yaml.Node, key string) []int {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	var out []int
	if l := yamlnode.Get(n, key); n.Kind == yaml.MappingNode && l != nil && l.Kind == yaml.SequenceNode {
		for _, it := range l.Content {
			out = append(out, it.Line)
		}
	}
	return out
}

func (e *HTTPExchange) matches(method, url string) (bool, error) {
	if e.Method != "" && e.Method != method {
		return false, nil
	}
	if e.URL != "" && e.URL != url {
		return false, nil
	}
	if e.URLPattern != nil {
		// a script's URL may be megabytes, and a match cannot be interrupted
		if err := recost.Check(e.urlInsts, len(url)); err != nil {
			return false, fmt.Errorf("starlark http replay: url_pattern of the exchange at line %d: %v", e.Line, err)
		}
		if !e.URLPattern.MatchString(url) {
			return false, nil
		}
	}
	return true, nil
}

// Answer finds the exchange for a request.
func (c *HTTPCassette) Answer(method, url string) (*HTTPExchange, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.Exchanges {
		if c.played[i] {
			continue
		}
		ok, err := c.Exchanges[i].matches(method, url)
		if err != nil {
			return nil, err
		}
		if ok {
			c.played[i] = true
			c.log = append(c.log, map[string]any{"method": method, "url": url, "status": c.Exchanges[i].Status})
			return &c.Exchanges[i], nil
		}
	}
	all := make([]string, len(c.Exchanges))
	for i, e := range c.Exchanges {
		all[i] = e.label()
	}
	return nil, fmt.Errorf("starlark http replay: no episode matched %s %s; available: %s", method, url, strings.Join(all, ", "))
}

// label is an exchange as the miss error lists it: "METHOD url-or-pattern"
// ("METHOD url" for one under request:, upstream's).
func (e *HTTPExchange) label() string {
	u := e.URL
	if u == "" && e.URLPattern != nil {
		u = e.URLPattern.String()
	}
	// untrimmed ("GET " without a url), "*" for no method, as upstream
	return cmp.Or(e.MethodText, e.Method, "*") + " " + u
}

// InspectCassette answers a Starlark script's ctx.fs and ctx.probe calls
// in a flow fixture (starlark_inspect_cassette), in upstream's layout:
//
//	kind: inspect_cassette
//	interactions:
//	  - op: read | exists | glob | probe
//	    target: <path, pattern or probe name>
//	    exit: <int>     # probe's exit code (0 when absent)
//	    out: <text>     # read: the file's text; exists: "true" or anything
//	                    # else; glob: the paths, one a line; probe: output
//
// Each interaction answers one call: the first not yet played whose op and
// target equal the call's (a probe's arguments are not compared). A call
// with none left fails the script, naming every interaction; nothing is
// read from disk. One cassette serves a whole fixture, so a second call of
// the same target needs a second interaction. It is safe for concurrent
// use.
type InspectCassette struct {
	Path         string
	Interactions []Interaction

	replayLog // log: {op, target, status} of every call answered
}

// note adds an answered call to the fixture's log.
func (c *InspectCassette) note(op, target, status string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, map[string]any{"op": op, "target": target, "status": status})
}

// Interaction is one recorded fs/probe answer.
type Interaction struct {
	Op     string
	Target string
	Exit   int
	Out    string
	Line   int
}

type rawInspect struct {
	Kind         string `yaml:"kind"`
	Interactions []struct {
		Op     string `yaml:"op"`
		Target any    `yaml:"target"`
		Exit   *int   `yaml:"exit"`
		Out    any    `yaml:"out"`
	} `yaml:"interactions"`
}

// ParseInspectCassette parses a kind: inspect_cassette file; path labels
// errors. Other keys are ignored, as upstream's reader does.
func ParseInspectCassette(path string, data []byte) (*InspectCassette, error) {
	var raw rawInspect
	node, err := decodeCassette(path, "inspect", data, &raw, " (an inspect cassette lists interactions: of {op, target, exit, out})")
	if err != nil {
		return nil, err
	}
	if raw.Kind != "inspect_cassette" {
		return nil, fmt.Errorf("%s: kind is %q; an inspect cassette says kind: inspect_cassette", path, raw.Kind)
	}
	lines := listLines(node, "interactions")
	c := &InspectCassette{Path: path}
	for i, r := range raw.Interactions {
		it := Interaction{Op: r.Op}
		if i < len(lines) {
			it.Line = lines[i]
		}
		// a number, a bool or null is its printed text, as upstream
		// (conformance star-http-scalar-text)
		target, ok1 := yamlnode.PrintedText(r.Target)
		out, ok2 := yamlnode.PrintedText(r.Out)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s:%d: interactions[%d]: target and out are one text each: write them as strings", path, it.Line, i)
		}
		it.Target, it.Out = target, out
		if r.Exit != nil {
			it.Exit = *r.Exit
		}
		c.Interactions = append(c.Interactions, it)
	}
	c.played = make([]bool, len(c.Interactions))
	return c, nil
}

// Fresh is the cassette as parsed, nothing played: the interactions shared
// (clipped, so an append copies them), the played marks and log its own.
func (c *InspectCassette) Fresh() *InspectCassette {
	return &InspectCassette{Path: c.Path, Interactions: slices.Clip(c.Interactions), replayLog: replayLog{played: make([]bool, len(c.Interactions))}}
}

// take plays the first unplayed interaction of op on target; a miss is
// upstream's error, listing every interaction.
func (c *InspectCassette) take(op, target string) (*Interaction, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.Interactions {
		it := &c.Interactions[i]
		if !c.played[i] && it.Op == op && it.Target == target {
			c.played[i] = true
			return it, nil
		}
	}
	all := make([]string, len(c.Interactions))
	for i, it := range c.Interactions {
		all[i] = it.Op + " " + it.Target
	}
	return nil, fmt.Errorf("starlark inspect replay: no interaction matched %s %s; available: %s", op, target, strings.Join(all, ", "))
}

// Fresh is c as parsed, with nothing played and nothing logged, for
// another fixture naming the same file without parsing it again: the
// exchanges are shared (a replay never changes them; one recorded is
// appended to the copy's own list).
func (c *HTTPCassette) Fresh() *HTTPCassette {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &HTTPCassette{Path: c.Path, Exchanges: slices.Clip(c.Exchanges), record: c.record, fileMode: c.fileMode, replayLog: replayLog{played: make([]bool, len(c.Exchanges))}}
}
