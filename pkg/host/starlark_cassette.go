package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// HTTPCassette answers a Starlark script's ctx.http calls from recorded
// exchanges (a flow fixture's starlark_http_cassette: kind: http_cassette).
// It is safe for concurrent use; each exchange is played once in order,
// and a request whose matching exchanges are all played replays the first
// of them again.
type HTTPCassette struct {
	Path      string
	Exchanges []HTTPExchange

	mu     sync.Mutex
	played []bool
	record string // recordNone, recordNewEpisodes, recordAll
	dirty  bool
}

// HTTPExchange is one recorded request/response.
type HTTPExchange struct {
	Method     string
	URL        string         // exact match ("" = any)
	URLPattern *regexp.Regexp // regexp searched in the URL (nil = none)
	Status     int
	Headers    map[string]string
	Body       string
	Line       int
}

// maxCassette bounds a cassette file.
const maxCassette = 64 << 20

type rawCassette struct {
	Kind       string `yaml:"kind"`
	RecordMode string `yaml:"record_mode"`
	Exchanges  []struct {
		Match   *rawRequest `yaml:"match"`
		Request *rawRequest `yaml:"request"`
		Resp    *struct {
			Status  int               `yaml:"status"`
			Headers map[string]string `yaml:"headers"`
			Body    any               `yaml:"body"`
		} `yaml:"response"`
	} `yaml:"exchanges"`
}

type rawRequest struct {
	Method     string `yaml:"method"`
	URL        string `yaml:"url"`
	URLPattern string `yaml:"url_pattern"`
}

// ParseHTTPCassette parses a kind: http_cassette file; path labels errors.
// record_mode (none, new_episodes, all) sets the record mode; see
// SetRecordMode and Flush.
func ParseHTTPCassette(path string, data []byte) (*HTTPCassette, error) {
	if len(data) > maxCassette {
		return nil, fmt.Errorf("%s: http cassette is larger than %d bytes", path, maxCassette)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the http cassette is empty", path)
	}
	var raw rawCassette
	var node yaml.Node
	if err := yaml.Unmarshal(data, &node); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := node.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the http cassette is empty", path)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if raw.Kind != "http_cassette" {
		return nil, fmt.Errorf("%s: kind is %q; an http cassette says kind: http_cassette", path, raw.Kind)
	}
	switch raw.RecordMode {
	case "", recordNone, recordNewEpisodes, recordAll:
	default:
		return nil, fmt.Errorf("%s: record_mode %q is not one of none, new_episodes, all", path, raw.RecordMode)
	}
	lines := exchangeLines(&node)
	c := &HTTPCassette{Path: path}
	for i, e := range raw.Exchanges {
		where := fmt.Sprintf("%s: exchanges[%d]", path, i)
		if i < len(lines) {
			where = fmt.Sprintf("%s:%d: exchanges[%d]", path, lines[i], i)
		}
		req := e.Match
		if req == nil {
			req = e.Request
		}
		if req == nil {
			return nil, fmt.Errorf("%s: needs match: (or request:) with method and url or url_pattern", where)
		}
		if e.Resp == nil {
			return nil, fmt.Errorf("%s: needs a response: with a status", where)
		}
		ex := HTTPExchange{Method: strings.ToUpper(strings.TrimSpace(req.Method)), URL: req.URL, Status: e.Resp.Status, Headers: e.Resp.Headers}
		if i < len(lines) {
			ex.Line = lines[i]
		}
		if req.URLPattern != "" {
			re, err := regexp.Compile(req.URLPattern)
			if err != nil {
				return nil, fmt.Errorf("%s: url_pattern %q is not a valid regular expression: %v", where, req.URLPattern, err)
			}
			ex.URLPattern = re
		}
		if ex.URL == "" && ex.URLPattern == nil {
			return nil, fmt.Errorf("%s: needs url or url_pattern", where)
		}
		if ex.Status == 0 {
			ex.Status = 200 // a response without a status is a plain success
		}
		if ex.Status < 100 || ex.Status > 599 {
			return nil, fmt.Errorf("%s: response.status %d is not an HTTP status (100-599)", where, ex.Status)
		}
		switch b := e.Resp.Body.(type) {
		case nil:
		case string:
			ex.Body = b
		default:
			j, err := json.Marshal(normalizeYAML(b))
			if err != nil {
				return nil, fmt.Errorf("%s: response.body does not encode as JSON: %v", where, err)
			}
			ex.Body = string(j)
		}
		c.Exchanges = append(c.Exchanges, ex)
	}
	c.played = make([]bool, len(c.Exchanges))
	if raw.RecordMode != "" && raw.RecordMode != recordNone {
		if err := c.SetRecordMode(raw.RecordMode); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// exchangeLines returns the line of each exchanges[] item.
func exchangeLines(n *yaml.Node) []int {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "exchanges" && n.Content[i+1].Kind == yaml.SequenceNode {
			var out []int
			for _, it := range n.Content[i+1].Content {
				out = append(out, it.Line)
			}
			return out
		}
	}
	return nil
}

func (e *HTTPExchange) matches(method, url string) bool {
	if e.Method != "" && e.Method != method {
		return false
	}
	if e.URL != "" && e.URL != url {
		return false
	}
	if e.URLPattern != nil && !e.URLPattern.MatchString(url) {
		return false
	}
	return true
}

// Answer finds the exchange for a request.
func (c *HTTPCassette) Answer(method, url string) (*HTTPExchange, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	first := -1
	for i := range c.Exchanges {
		if !c.Exchanges[i].matches(method, url) {
			continue
		}
		if first < 0 {
			first = i
		}
		if !c.played[i] {
			c.played[i] = true
			return &c.Exchanges[i], nil
		}
	}
	if first >= 0 {
		return &c.Exchanges[first], nil
	}
	return nil, fmt.Errorf("http cassette %s has no exchange for %s %s (%d exchange(s)); record one or fix the URL", c.Path, method, url, len(c.Exchanges))
}

// Unplayed lists the exchanges never played, as "METHOD url" strings.
func (c *HTTPCassette) Unplayed() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for i, e := range c.Exchanges {
		if !c.played[i] {
			u := e.URL
			if u == "" && e.URLPattern != nil {
				u = e.URLPattern.String()
			}
			out = append(out, strings.TrimSpace(e.Method+" "+u))
		}
	}
	return out
}

// InspectCassette answers a Starlark script's ctx.fs and ctx.probe calls
// (a flow fixture's starlark_inspect_cassette: kind: inspect_cassette):
//
//	kind: inspect_cassette
//	inspections:
//	  - op: read | exists | glob | probe
//	    target: <path, pattern or probe name>
//	    result: <the answer: a string for read, a bool for exists, a list for glob, anything for probe>
//	    status: ok | missing | error   # optional; missing makes read fail
//
// A call the cassette does not answer falls through to the story
// directory (fs) or fails (probe).
type InspectCassette struct {
	Path    string
	Entries []Inspection
}

// Inspection is one recorded fs/probe answer.
type Inspection struct {
	Op     string `yaml:"op"`
	Target string `yaml:"target"`
	Result any    `yaml:"result"`
	Status string `yaml:"status"`
}

var inspectOps = map[string]bool{"read": true, "exists": true, "glob": true, "probe": true}

// ParseInspectCassette parses a kind: inspect_cassette file. Upstream's
// exact layout is not known, so it reads leniently: entries under
// inspections:, exchanges:, entries: or episodes:, each with op (or kind /
// type), target (or path / pattern / name), result (or content / value /
// response) and status; an entry it cannot read as one of read, exists,
// glob or probe is skipped (the call then falls through to the story
// directory). The kind and the YAML itself are checked.
func ParseInspectCassette(path string, data []byte) (*InspectCassette, error) {
	if len(data) > maxCassette {
		return nil, fmt.Errorf("%s: inspect cassette is larger than %d bytes", path, maxCassette)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the inspect cassette is empty", path)
	}
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if k, _ := raw["kind"].(string); k != "inspect_cassette" {
		return nil, fmt.Errorf("%s: kind is %q; an inspect cassette says kind: inspect_cassette", path, raw["kind"])
	}
	c := &InspectCassette{Path: path}
	pick := func(m map[string]any, keys ...string) any {
		for _, k := range keys {
			if v, ok := m[k]; ok {
				return v
			}
		}
		return nil
	}
	for _, list := range []string{"inspections", "exchanges", "entries", "episodes"} {
		items, _ := raw[list].([]any)
		for _, it := range items {
			m, ok := it.(map[string]any)
			if !ok {
				continue
			}
			e := Inspection{}
			e.Op, _ = pick(m, "op", "kind", "type").(string)
			e.Target, _ = pick(m, "target", "path", "pattern", "name").(string)
			e.Status, _ = m["status"].(string)
			e.Result = normalizeYAML(pick(m, "result", "content", "value", "response"))
			if !inspectOps[e.Op] || e.Target == "" {
				continue
			}
			switch e.Status {
			case "", "ok", "missing", "error":
			default:
				e.Status = "ok"
			}
			c.Entries = append(c.Entries, e)
		}
	}
	return c, nil
}

// find returns the entry answering op on target.
func (c *InspectCassette) find(op, target string) *Inspection {
	if c == nil {
		return nil
	}
	for i := range c.Entries {
		if c.Entries[i].Op == op && c.Entries[i].Target == target {
			return &c.Entries[i]
		}
	}
	return nil
}
