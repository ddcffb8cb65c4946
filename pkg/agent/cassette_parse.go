package agent

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"time"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/childproc"
	"kitsoki/internal/duration"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/recost"
	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
)

// LoadCassette reads and parses a host_cassette file.
func LoadCassette(p string) (*Cassette, error) { return loadCassette(p, safefile.Cassette) }

// loadCassette is LoadCassette with the cassette's cap, the file with its
// included files, as a parameter: tests reach the cap at a small size.
func loadCassette(p string, max int64) (*Cassette, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	data, err := safefile.ReadFile(abs, max)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", p, safefile.Reason(err))
	}
	return parseCassette(p, filepath.Dir(abs), data, max, nil)
}

// ParseCassette parses cassette bytes. name is the file path: it appears in
// errors and roots !include (which may only read inside its directory).
func ParseCassette(name string, data []byte) (*Cassette, error) {
	return ParseCassetteIn(name, data, nil)
}

// ParseCassetteIn is ParseCassette whose phase_from compiles within
// patterns: the story's budget (story.Story.Patterns), which every
// cassette and fixture of the story shares (nil: one of its own).
func ParseCassetteIn(name string, data []byte, patterns *recost.Budget) (*Cassette, error) {
	return parseCassette(name, filepath.Dir(name), data, safefile.Cassette, patterns)
}

// parseCassette parses cassette bytes named name (as the user gave it, for
// messages) whose !include files are read inside dir, the whole held to
// max bytes; its phase_from compiles within patterns.
func parseCassette(name, dir string, data []byte, max int64, patterns *recost.Budget) (*Cassette, error) {
	data, err := resolveIncludes(dir, data, max)
	if err != nil {
		return nil, fmt.Errorf("cassette: resolve !include in %q: %w", name, err)
	}
	var doc yaml.Node
	if err := yamlnode.Unmarshal(data, &doc); err != nil {
		return nil, cassetteYAMLError(name, err)
	}
	if at := yamlnode.AliasTextFileOver(&doc); at != nil {
		// each replay repeats its answer into the run and the trace
		return nil, fmt.Errorf("cassette: %q, line %d: %s", name, at.Line, yamlnode.AliasTextMsg("cassette", ""))
	}
	if k := yamlnode.ComplexKey(&doc); k != nil {
		return nil, fmt.Errorf("cassette: %s:%d:%d: a mapping or a list is used as a key; a key is a plain name", name, k.Line, k.Column)
	}
	if k := yamlnode.FlowKeyTab(&doc, data); k != nil {
		return nil, fmt.Errorf("cassette: %s:%d:%d: %s", name, k.Line, k.Column, yamlnode.FlowKeyTabMsg("cassette"))
	}
	// upstream's parser and decoder refuse a key given twice, the whole file
	if at, msg := yamlnode.RepeatedKey(&doc, reflect.TypeFor[rawCassette](), "cassette"); at != nil {
		return nil, fmt.Errorf("cassette: %s:%d:%d: %s", name, at.Line, at.Column, msg)
	}
	yamlnode.TextPointlessFloats(&doc)
	// a plain date is text upstream, in data and in match values alike
	// (conformance cassette-dates-text)
	yamlnode.TextTimestamps(&doc)
	printedTexts(&doc)
	var raw rawCassette
	if err := doc.Decode(&raw); err != nil {
		return nil, cassetteDecodeError(name, len(data), &doc, err)
	}
	phaseFrom, err := raw.checkHeader(name, patterns)
	if err != nil {
		return nil, err
	}
	c := &Cassette{Path: name, AppID: raw.AppID, AppVersion: raw.AppVersion, RecordMode: raw.RecordMode, PhaseFrom: phaseFrom, MatchOn: raw.MatchOn,
		phaseInsts: patterns.Insts(raw.PhaseFrom),
		counts:     map[string]int{}, pending: map[string]planned{}}
	for i, re := range raw.Episodes {
		if re == nil {
			return nil, fmt.Errorf("cassette: %q: episode %d is empty", name, i)
		}
		ep := &Episode{ID: re.ID, Match: re.Match, Replay: re.Replay, Response: re.Response}
		// a match: value is read as the data is: `!!binary` bytes match a
		// call's bytes, not their text (conformance cassette-match-values)
		if ep.Match != nil {
			ep.Match, _ = yamlnode.UpstreamScalars(episodeNode(&doc, i, "match"), ep.Match).(map[string]any)
		}
		if ep.Response.Data != nil {
			ep.Response.Data, _ = yamlnode.UpstreamScalars(episodeNode(&doc, i, "response", "data"), ep.Response.Data).(map[string]any)
		}
		if re.Delay != nil {
			var ok bool
			if ep.Delay, ok = EpisodeDelay(*re.Delay); !ok {
				ep.badDelay = re.Delay
			}
		}
		if a := re.Agent; a != nil {
			ea := a.EpisodeAgent
			ea.DurationMS, ea.PromptTokens, ea.ResponseTokens = int64(a.DurationMS), int64(a.PromptTokens), int64(a.ResponseTokens)
			ea.CostUSD = float64(a.CostUSD)
			// bytes, as upstream's trace writes them: base64 text
			ea.Input = jsonvalue.Normalize(yamlnode.UpstreamScalars(episodeNode(&doc, i, "agent", "input"), a.Input))
			switch r := a.Response.(type) {
			case nil:
			case string:
				ea.Response = r
			default:
				b, err := json.Marshal(jsonvalue.Normalize(r))
				if err != nil {
					return nil, fmt.Errorf("cassette: %q: episode %q: agent.response cannot be encoded as JSON: %v", name, re.ID, err)
				}
				ea.Response = string(b)
			}
			if ea.ResponseJSON, err = responseJSON(name, re.ID, &a.ResponseJSON); err != nil {
				return nil, err
			}
			if a.Transcript != nil {
				tr := &Transcript{Format: a.Transcript.Format}
				for j := range a.Transcript.Timings {
					var t agentInt
					if tn := &a.Transcript.Timings[j]; t.UnmarshalYAML(tn) != nil {
						return nil, fmt.Errorf("cassette: %s:%d:%d: episodes[%d].agent.transcript.timings[%d]: expected an integer, got %s", name, tn.Line, tn.Column, i, j, yamlnode.Describe(tn))
					}
					tr.Timings = append(tr.Timings, int64(t))
				}
				for j, ev := range a.Transcript.Events {
					b, err := transcriptEvent(ev)
					if err != nil {
						return nil, fmt.Errorf("cassette: %q: episode %q: transcript event[%d] %v", name, re.ID, j, err)
					}
					tr.Events = append(tr.Events, b)
				}
				ea.Transcript = tr
			}
			ep.Agent = &ea
		}
		c.Episodes = append(c.Episodes, ep)
	}
	c.played = make([]bool, len(c.Episodes))
	return c, nil
}

// EpisodeDelay is the delay an episode's delay: text gives, and whether
// it is a duration. One that is not (a bare number such as 2, a negative
// one, text, "") is no delay, as upstream, which parses it when the
// episode plays and drops the error (conformance cassette-delay-unparsed);
// validate warns at it (flow-cassette-delay).
func EpisodeDelay(text string) (time.Duration, bool) {
	d, err := duration.Parse(text)
	if text == "" || err != nil {
		return 0, false
	}
	return d, true
}

type rawCassette struct {
	Kind        string        `yaml:"kind"`
	AppID       string        `yaml:"app_id"`
	RecordMode  string        `yaml:"record_mode"`
	PhaseFrom   string        `yaml:"phase_from"`
	AppVersion  string        `yaml:"app_version"`
	MatchOn     []string      `yaml:"match_on"`
	Episodes    []*rawEpisode `yaml:"episodes"`
	SourceRun   string        `yaml:"source_run"`
	GeneratedAt string        `yaml:"generated_at"`
}

type rawEpisode struct {
	ID       string          `yaml:"id"`
	Match    map[string]any  `yaml:"match"`
	Replay   string          `yaml:"replay"`
	Delay    *string         `yaml:"delay"` // nil: null or absent
	Agent    *rawAgent       `yaml:"agent"`
	Response EpisodeResponse `yaml:"response"`
}

type rawAgent struct {
	EpisodeAgent `yaml:",inline"`
	// the numbers, read as upstream reads them (agentInt), and the keys
	// upstream reads as text but kitsoki does not use (so a list or a
	// mapping there refuses the cassette on both engines)
	DurationMS     agentInt   `yaml:"duration_ms"`
	PromptTokens   agentInt   `yaml:"prompt_tokens"`
	ResponseTokens agentInt   `yaml:"response_tokens"`
	CostUSD        agentFloat `yaml:"cost_usd"`
	Turn           agentInt   `yaml:"turn"`
	SystemPrompt   string     `yaml:"system_prompt"`
	CallID         string     `yaml:"call_id"`
	Input          any        `yaml:"input"`
	Response       any        `yaml:"response"` // a string, or YAML/JSON structure (e.g. an included *.json)
	ResponseJSON   yaml.Node  `yaml:"response_json"`
	Transcript     *struct {
		Format  string      `yaml:"format"`
		Events  []any       `yaml:"events"`
		Timings []yaml.Node `yaml:"timings"` // each an agentInt (a null one is 0, kept)
	} `yaml:"transcript"`
}

// transcriptEvent keeps a string event byte-for-byte (it must be JSON) and
// compacts a mapping event.
func transcriptEvent(ev any) (json.RawMessage, error) {
	if s, ok := ev.(string); ok {
		if !json.Valid([]byte(s)) {
			return nil, fmt.Errorf("is not valid JSON: %q", childproc.Snippet(nil, s))
		}
		return json.RawMessage(s), nil
	}
	b, err := json.Marshal(jsonvalue.Normalize(ev))
	if err != nil {
		return nil, fmt.Errorf("cannot be encoded as JSON: %v", err)
	}
	return b, nil
}

// episodeNode is the node of doc's episodes[i] at path (response, data
// for episodes[i].response.data), or nil.
func episodeNode(doc *yaml.Node, i int, path ...string) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	for _, key := range append([]string{"episodes", ""}, path...) {
		if n = yamlnode.Deref(n); n == nil {
			return nil
		}
		switch {
		case key == "" && n.Kind == yaml.SequenceNode && i < len(n.Content):
			n = n.Content[i]
		case key != "" && n.Kind == yaml.MappingNode:
			n = yamlnode.Get(n, key)
		default:
			return nil
		}
	}
	return n
}
