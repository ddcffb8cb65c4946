package compose

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/engine"
)

// FallBack makes a miss of a handler real reports go to that real handler
// (engine.ErrReplayMiss) instead of failing, as upstream's flow rig does
// under host_bindings, where each cassette dispatcher wraps the built-in
// of its name (trace-eval.md §B.2 "Miss resolution"; conformance
// cassette-miss-real-handler).
func (hc *HostCassette) FallBack(real func(handler string) bool) { hc.fallback = real }

// recordedComment heads each episode appended to the file, upstream's words.
const recordedComment = "# appended by KITSOKI_CASSETTE_RECORD"

// Record keeps a missed call's live answer (engine.HostRecorder) under
// record_mode new_episodes: an episode recorded_<handler>_<state> that
// matches the handler, the phase and (but for host.agent.*) every arg,
// with the answer (an agent verb's domain error only), added after the others and
// appended to the file as YAML text under a comment, as upstream does. A
// write that fails is not reported (upstream's is not either): the run's
// answer stands.
func (hc *HostCassette) Record(c engine.ReplayCall, data map[string]any, domainErr string) {
	if !hc.recording {
		return
	}
	handler, args := hc.routed(c.Handler, c.Args)
	ep := &agent.Episode{ID: "recorded_" + handler + "_" + c.State, Match: map[string]any{"handler": handler}}
	if phase, err := hc.c.Phase(c.State); err == nil && phase != "" {
		ep.Match["phase"] = phase
	}
	if !strings.HasPrefix(handler, "host.agent.") {
		for k, v := range args {
			if k != "handler" && k != "phase" && k != "schema_name" {
				ep.Match[k] = jsonvalue.Normalize(v)
			}
		}
		ep.Response.Data, _ = jsonvalue.Normalize(maps.Clone(data)).(map[string]any)
	}
	ep.Response.Error = domainErr
	hc.c.Append(ep)
	if hc.path != "" {
		hc.fileMu.Lock()
		defer hc.fileMu.Unlock()
		_ = appendEpisode(hc.root, hc.path, ep)
	}
}

// recordedEpisode is an appended episode as written.
type recordedEpisode struct {
	ID       string         `yaml:"id"`
	Match    map[string]any `yaml:"match"`
	Response *recordedReply `yaml:"response,omitempty"`
}

type recordedReply struct {
	Data  map[string]any `yaml:"data,omitempty"`
	Error string         `yaml:"error,omitempty"`
}

// appendEpisode appends ep to the cassette file at path as a list item
// indented under its episodes:, after a blank line and the comment;
// through root when one is set (AppendIn), so a file or directory swapped
// for a link leading out since the cassette was read is not written.
func appendEpisode(root, path string, ep *agent.Episode) error {
	out := recordedEpisode{ID: ep.ID, Match: ep.Match}
	if ep.Response.Data != nil || ep.Response.Error != "" {
		out.Response = &recordedReply{Data: ep.Response.Data, Error: ep.Response.Error}
	}
	var n yaml.Node
	if err := n.Encode([]recordedEpisode{out}); err != nil {
		return err
	}
	quoteAsUpstream(&n)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(&n); err != nil {
		return err
	}
	var text strings.Builder
	text.WriteString("\n" + recordedComment + "\n")
	for line := range strings.Lines(b.String()) {
		text.WriteString("  " + line)
	}
	var f *os.File
	var err error
	if root != "" {
		f, err = safefile.OpenAppendIn(root, path)
	} else {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text.String()); err != nil {
		_ = f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// quoteAsUpstream styles the strings under n as upstream's writer does: a
// string that needs quotes (its first line does) in double quotes, another
// one of several lines as a literal block.
func quoteAsUpstream(n *yaml.Node) {
	for _, c := range n.Content {
		quoteAsUpstream(c)
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return
	}
	first, _, multi := strings.Cut(n.Value, "\n")
	switch {
	case needsQuotes(first):
		n.Style = yaml.DoubleQuotedStyle
	case multi:
		n.Style = yaml.LiteralStyle
	}
}

// needsQuotes reports a one-line string that is not plain YAML (yaml.v3
// would quote it).
func needsQuotes(s string) bool {
	b, err := yaml.Marshal(s)
	return err != nil || len(b) > 0 && (b[0] == '\'' || b[0] == '"')
}
