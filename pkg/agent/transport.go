package agent

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"

	"kitsoki/internal/childproc"
	"kitsoki/pkg/story"
)

// maxFrameBytes bounds one answer of every transport: a subprocess answer
// line (internal/childproc's frame cap), the claude CLI's stdout and
// answer file, an mcp_http SSE event. A larger answer is an error, never an
// unbounded read.
const maxFrameBytes = childproc.MaxFrame

// Transport carries one request to one plugin. Implementations return
// *AskError on failure and honour ctx: when it is done they return promptly
// (Dispatch discards any answer that arrives after the hard deadline anyway).
// Transports must be safe for concurrent callers (they may serialise).
type Transport interface {
	Ask(ctx context.Context, req *AskRequest) (*AskResponse, error)
	Close() error
}

// BuildContext is what a Builder receives besides the declaration.
type BuildContext struct {
	StoryDir string
	Logger   *slog.Logger        // debug log; never receives secrets
	Redact   func(string) string // masks every secret value of every declaration
	// ClaudeSubmit starts kitsoki's submit MCP server (e.g. [kitsoki, mcp,
	// submit]) for builtin.claude_cli decide calls; nil = plain text only.
	ClaudeSubmit []string
	// cut is where a streamed text may be split without splitting a
	// secret (redactor.safeCut); set by the registry, nil = anywhere.
	cut func(s string, n int) int
	// frameCap lowers the subprocess transport's frame cap
	// (childproc.Config.FrameCap) for tests; 0 is maxFrameBytes.
	frameCap int
}

// Mask is Redact(s), or s when Redact is nil.
func (bc BuildContext) Mask(s string) string {
	if bc.Redact == nil {
		return s
	}
	return bc.Redact(s)
}

// Builder constructs the transport for one agent_plugins: declaration.
// Builders are keyed by plugin type (story.PluginSubprocess, ...); see
// defaultBuilders and RegistryOptions.Builders.
type Builder func(p *story.AgentPlugin, bc BuildContext) (Transport, error)

// storyPath resolves a declared program path: one with a slash is relative
// to the story directory; a bare name is left for PATH.
func (bc BuildContext) storyPath(p string) string {
	if p != "" && !filepath.IsAbs(p) && strings.ContainsRune(filepath.ToSlash(p), '/') && bc.StoryDir != "" {
		return filepath.Join(bc.StoryDir, p)
	}
	return p
}
