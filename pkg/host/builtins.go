package host

import (
	"cmp"
	"os"
)

// Options configures the built-in handlers.
type Options struct {
	// SelfDir is put first on host.run's PATH (the kitsoki binary's
	// directory, upstream's behaviour); "" = selfDir().
	SelfDir string
	// Getenv reads KITSOKI_ARTIFACTS_ROOT (nil = os.Getenv).
	Getenv func(string) string
	// Starlark configures host.starlark.run (HTTP cassette, step limit).
	Starlark StarlarkOptions
	// Search configures host.agent.search (the embedder and its cache).
	// With no embedder, a search call is a domain error saying how to
	// configure one.
	Search SearchOptions
	// WriteBudget caps the bytes host.append_to_file and host.artifacts_dir
	// add to files across every call of the registry (0 = no cap);
	// [SandboxOptions] sets [DefaultSandboxWriteBudget].
	WriteBudget int64
	// LookPath finds the programs of the CLI-backed built-ins (gh, cpt,
	// slidey, ffmpeg, go, git); nil = exec.LookPath.
	LookPath func(string) (string, error)
}

// Built-in handler names: what Builtins registers, for an embedder that
// replaces, wraps or lists one (Registry.Register, Registry.Lookup).
const (
	HandlerRun           = "host.run"
	HandlerArtifactsDir  = "host.artifacts_dir"
	HandlerInboxAdd      = "host.inbox.add"
	HandlerTransportPost = "host.transport.post"
	HandlerAppendToFile  = "host.append_to_file"
	HandlerJobsAnswer    = "host.jobs.answer_clarification"
	HandlerStarlarkRun   = "host.starlark.run"
	HandlerAgentSearch   = "host.agent.search"
)

// Builtins returns a registry holding every built-in handler.
func Builtins(opts Options) *Registry {
	r := NewRegistry()
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	budget := newWriteBudget(opts.WriteBudget)
	b := func(name string, h Handler, summary string) {
		r.RegisterInfo(name, h, Info{Source: SourceBuiltin, Summary: summary})
	}
	b(HandlerRun, runHandler{selfDir: cmp.Or(opts.SelfDir, selfDir())}, "runs a command (bash -c, or argv with args:); stdout, exit_code, ok, stdout_json")
	b(HandlerArtifactsDir, artifactsHandler{getenv: getenv, budget: budget}, "appends markdown chunks (or copies media) under the artifacts root")
	b(HandlerInboxAdd, inboxHandler{}, "adds a notification to the run's inbox")
	b(HandlerTransportPost, transportHandler{}, "posts to a chat transport (none in a headless run: a domain error)")
	b(HandlerAppendToFile, appendFileHandler{budget: budget}, "appends a comment section to a bug file in the working directory")
	b(HandlerJobsAnswer, jobsAnswerHandler{}, "answers a background job's clarification question")
	b(HandlerStarlarkRun, NewStarlarkRun(opts.Starlark), "runs a sandboxed Starlark script with a typed sidecar")
	b(HandlerAgentSearch, newAgentSearch(opts.Search), "embedding search over the files a corpus: glob selects")
	look := lookPathFunc(opts.LookPath)
	b(HandlerGHTicket, opCLIHandler{HandlerGHTicket, "gh", "gh CLI not available — install github.com/cli/cli and run `gh auth login`", look}, "GitHub issues as tickets (answers that the gh CLI is absent; kitsoki does not run gh)")
	b(HandlerCypilotArtifacts, opCLIHandler{HandlerCypilotArtifacts, "cpt", "cpt CLI not available — install cypilot from https://github.com/Acronis/cypilot or run from a checkout that has it on PATH", look}, "cypilot artifacts (answers that the cpt CLI is absent; kitsoki does not run cpt)")
	b(HandlerDiffOpen, diffOpenHandler{}, "shows a diff for review: upstream's answer, no difftool started")
	b(HandlerSlideyRender, slideyHandler{look: look, getenv: getenv}, "renders a slide deck (answers that slidey is absent; kitsoki does not run slidey)")
	b(HandlerContactSheet, contactSheetHandler{look: look}, "a contact sheet of video frames (answers that ffmpeg is absent; kitsoki does not run ffmpeg)")
	b(HandlerLocalTickets, localTicketsHandler{getenv: getenv, budget: budget}, "tickets as markdown files under issues/{bugs,features,epics}/ (ops search, list_mine, get, comment, transition)")
	b(HandlerGit, gitHandler{look: look}, "git branch, diff, commit and push in a workdir (ops branch, diff, commit, push; the pull-request ops answer that gh is absent)")
	b(HandlerGitWorktree, gitWorktreeHandler{}, "git worktrees as workspaces (ops create, list, get, sync, cleanup_scan, cleanup_apply)")
	b(HandlerLocalCI, localCIHandler{}, "local CI: go test / go build ./... in a workdir (ops run_tests, build)")
	b(HandlerWorkspaceManager, workspaceManagerHandler{}, "a workspace as the workspace-manager program describes it (workspace-manager get [--id workspace_id], its stdout a JSON object)")
	b(HandlerVideoFrame, videoFrameHandler{look: look}, "one frame of a video (answers that ffmpeg is absent; kitsoki does not run ffmpeg)")
	return r
}

// SourceBuiltin is Info.Source of the built-in handlers.
const SourceBuiltin = "builtin"
