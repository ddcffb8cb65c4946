package mcpserve

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// dispatchedVerbs are the host.agent.<verb> verbs that become tools.
var dispatchedVerbs = map[string]bool{"ask": true, "decide": true, "extract": true, "task": true, "converse": true}

// Tool is one catalog entry.
type Tool struct {
	Name    string
	Alias   string
	Verb    string
	Schemas []string // distinct with.schema paths of the call sites ("" = none)
	Sites   []string // state paths of the call sites
	// Output is the compiled call-site schema (JSON, bundled), when there is
	// exactly one and MCP accepts it as an outputSchema (output_schema.go);
	// OutputOmitted says why a single schema was not published.
	Output        json.RawMessage
	OutputOmitted string
}

// Catalog is an immutable tool catalog snapshot.
type Catalog struct {
	Generation string
	Revision   uint64
	Tools      map[string]*Tool
	// Err is why this catalog is empty (reload failure), "" otherwise.
	Err string

	story    *story.Story
	asm      *plugin.Assembly
	reg      *agent.Registry
	chain    *plugin.Chain
	files    []string // what the fingerprint covers
	root     string   // the project root the story's files are read through
	print    string
	inflight sync.WaitGroup
}

// Names lists the tool names, sorted.
func (c *Catalog) Names() []string { return slices.Sorted(maps.Keys(c.Tools)) }

func (c *Catalog) close() {
	if c.reg != nil {
		_ = c.reg.Close()
	}
	if c.chain != nil {
		_ = c.chain.Close()
	}
}

type site struct {
	alias, verb, schema, state string
}

// callSites walks every effect of the story.
func callSites(st *story.Story) []site {
	var out []site
	story.EachAgentEffect(st, func(state string, e *story.Effect) {
		verb := strings.TrimPrefix(e.Invoke, "host.agent.")
		alias := cmp.Or(e.Agent(), story.DefaultAgentAlias)
		if dispatchedVerbs[verb] && !strings.Contains(alias, "{{") {
			sch, _ := e.With["schema"].(string)
			if strings.Contains(sch, "{{") {
				sch = ""
			}
			out = append(out, site{alias, verb, sch, state})
		}
	})
	return out
}

// buildTools derives the tools of a story: enabled aliases only. Invalid or
// colliding names are an error naming both aliases.
func buildTools(st *story.Story, asm *plugin.Assembly, schemas *schema.Compiler) (map[string]*Tool, error) {
	byKey := map[string]*Tool{}
	// a tool's schemas and sites are each kept once, in the order first
	// met: a set beside each list (a search of it was quadratic in the
	// states calling one verb)
	seen := map[[3]string]bool{}
	for _, s := range callSites(st) {
		if ag, ok := asm.Agent(s.alias); !ok || !ag.Enabled {
			continue
		}
		k := s.alias + "\x00" + s.verb
		t := byKey[k]
		if t == nil {
			t = &Tool{Alias: s.alias, Verb: s.verb}
			byKey[k] = t
		}
		if sk := [3]string{k, "schema", s.schema}; !seen[sk] {
			seen[sk] = true
			t.Schemas = append(t.Schemas, s.schema)
		}
		if sk := [3]string{k, "site", s.state}; !seen[sk] {
			seen[sk] = true
			t.Sites = append(t.Sites, s.state)
		}
	}
	tools := map[string]*Tool{}
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		t := byKey[k]
		name, err := toolName(t.Alias, t.Verb)
		if err != nil {
			return nil, err
		}
		if prev := tools[name]; prev != nil {
			return nil, fmt.Errorf("tool name %s is claimed by both %s (%s) and %s (%s); rename one of the aliases", name, prev.Alias, prev.Verb, t.Alias, t.Verb)
		}
		t.Name = name
		slices.Sort(t.Schemas)
		if len(t.Schemas) == 1 && t.Schemas[0] != "" {
			sch, err := schemas.Compile(t.Schemas[0])
			if err != nil {
				return nil, fmt.Errorf("%s: schema %s: %v", name, t.Schemas[0], err)
			}
			if ok, why := outputSchema(sch.Bundled); ok {
				t.Output = json.RawMessage(sch.Bundled)
			} else {
				t.OutputOmitted = why
			}
		}
		tools[name] = t
	}
	return tools, nil
}

// inputSchema is {prompt, args?} (+ schema when the call sites differ).
func (t *Tool) inputSchema() map[string]any {
	props := map[string]any{
		"prompt": map[string]any{"type": "string", "minLength": 1, "description": "the fully rendered prompt"},
		"args":   map[string]any{"type": "object", "description": "the call's args (with.args)"},
	}
	req := []any{"prompt"}
	if len(t.Schemas) > 1 {
		props["schema"] = map[string]any{"enum": t.Schemas, "description": "which call site's schema the answer must satisfy"}
		req = append(req, "schema")
	}
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

// checkInput validates the arguments of a call against inputSchema.
func (t *Tool) checkInput(raw json.RawMessage, floor int64) (prompt string, args map[string]any, schemaPath string, err error) {
	var in map[string]any
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	// Arguments of millions of empty {} are refused before they are decoded.
	if limit, over := jsoncost.Over(raw, floor); over {
		return "", nil, "", fmt.Errorf("the arguments (%d bytes) would take over %d MiB once read (millions of empty values); send fewer objects and arrays", len(raw), limit>>20)
	}
	if err := json.Unmarshal(raw, &in); err != nil || in == nil {
		if num, big := jsonvalue.NumberOutOfRange(err); big { // an object, holding 1e400
			return "", nil, "", fmt.Errorf("the arguments hold the number %s, out of range of a 64-bit float; send a smaller number, or the number as a string", num)
		}
		return "", nil, "", fmt.Errorf("arguments must be a JSON object {prompt, args?}")
	}
	for k := range in {
		if k != "prompt" && k != "args" && !(k == "schema" && len(t.Schemas) > 1) {
			return "", nil, "", fmt.Errorf("unknown argument %q; %s takes prompt and args", k, t.Name)
		}
	}
	p, ok := in["prompt"].(string)
	if !ok || p == "" {
		return "", nil, "", fmt.Errorf("prompt is required and must be a non-empty string")
	}
	if a, present := in["args"]; present {
		m, ok := a.(map[string]any)
		if !ok {
			return "", nil, "", fmt.Errorf("args must be an object")
		}
		args = m
	}
	switch {
	case len(t.Schemas) > 1:
		s, _ := in["schema"].(string)
		if !slices.Contains(t.Schemas, s) {
			return "", nil, "", fmt.Errorf("schema must be one of %q", t.Schemas)
		}
		schemaPath = s
	case len(t.Schemas) == 1:
		schemaPath = t.Schemas[0]
	}
	return p, args, schemaPath, nil
}
