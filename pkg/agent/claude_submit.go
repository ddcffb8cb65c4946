package agent

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/internal/scratchdir"
)

// submitDirPrefix begins the name of a submit call's temporary directory
// (scratchdir.Make); the first submit call of a transport sweeps those a
// killed kitsoki left (scratchdir.Sweep).
const submitDirPrefix = "kitsoki-submit-"

// claudeSubmit is the submit-through-MCP path of a builtin.claude_cli decide
// call with an object schema: claude gets --mcp-config naming kitsoki's submit
// server (RegistryOptions.ClaudeSubmit), whose one tool takes the schema as
// input and writes the first valid answer to a file, so the answer arrives
// validated rather than as free text. When claude does not call the tool,
// the plain-text path applies. Everything lives in a temporary directory
// removed after the call.
type claudeSubmit struct {
	remove func() // deletes the directory
	out    string
	args   []string
}

const claudeSubmitTool = "mcp__kitsoki__submit"

func (t *claudeCLITransport) prepareSubmit(req *AskRequest) *claudeSubmit {
	if len(t.submit) == 0 || !submitsThroughTool(req.Verb, t.rawOK) || !objectSchema(req.Schema) {
		return nil
	}
	t.sweepSubmit.Do(func() { scratchdir.Sweep(submitDirPrefix) })
	dir, remove, err := scratchdir.Make(submitDirPrefix)
	if err != nil {
		t.log.Debug("claude submit: no temp dir; plain-text path", slog.String("error", err.Error()))
		return nil
	}
	s := &claudeSubmit{remove: remove, out: filepath.Join(dir, "submission.json")}
	schemaPath := filepath.Join(dir, "schema.json")
	cfgPath := filepath.Join(dir, "mcp.json")
	args := append(append([]string{}, t.submit[1:]...), "--schema", schemaPath, "--out", s.out)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"kitsoki": map[string]any{"type": "stdio", "command": t.submit[0], "args": args}}})
	if os.WriteFile(schemaPath, req.Schema, 0o600) != nil || os.WriteFile(cfgPath, cfg, 0o600) != nil {
		s.cleanup()
		return nil
	}
	s.args = []string{"--mcp-config", cfgPath, "--allowedTools", claudeSubmitTool}
	return s
}

// claudeArgs returns the extra claude arguments (none without submit).
func (s *claudeSubmit) claudeArgs() []string {
	if s == nil {
		return nil
	}
	return s.args
}

// prompt adds the instruction to answer through the tool.
func (s *claudeSubmit) prompt(p []byte) []byte {
	if s == nil {
		return p
	}
	return append(p, "\n\nSubmit your final answer by calling the tool "+claudeSubmitTool+" with the answer as its arguments (exactly once).\n"...)
}

// submitsThroughTool reports the verbs whose schema is given to claude as
// the submit tool: decide, and ask on upstream's default verb path (its
// validator tool, whose answer is ask's submitted).
func submitsThroughTool(verb string, defaultPath bool) bool {
	return verb == "decide" || (verb == "ask" && defaultPath)
}

// or returns the answer submitted through the tool, else fallback.
func (s *claudeSubmit) or(fallback json.RawMessage) json.RawMessage {
	if b, ok := s.got(); ok {
		return b
	}
	return fallback
}

// got returns the answer submitted through the tool, if any.
func (s *claudeSubmit) got() (json.RawMessage, bool) {
	if s == nil {
		return nil, false
	}
	b, err := safefile.ReadFile(s.out, maxFrameBytes) // the answer cap of every transport
	if err != nil || !json.Valid(b) {
		return nil, false
	}
	return json.RawMessage(b), true
}

func (s *claudeSubmit) cleanup() {
	if s != nil {
		s.remove()
	}
}

// objectSchema reports a schema whose top-level type is "object" (empty,
// null or not an object: false, as json.Unmarshal into a struct says).
func objectSchema(raw json.RawMessage) bool {
	var top struct {
		Type any `json:"type"`
	}
	return json.Unmarshal(raw, &top) == nil && top.Type == "object"
}
