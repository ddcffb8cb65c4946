package mcpserve

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/closeonce"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// Options configures a Server.
type Options struct {
	// StoryPath is the story directory or app.yaml.
	StoryPath string
	// ProfilePath is --profile ("" = .kitsoki/plugins.yaml found upward).
	ProfilePath string
	// Root is --root, the story's project root ("" = the nearest .git or
	// .kitsoki/ above it): every file the story names lies inside it.
	Root string
	// Sink receives the events of every call (agent.call.*, hook.*); the
	// caller wires it to a trace writer. Nil discards.
	Sink agent.Sink
	// CallTimeout is the hard deadline of one call (0 = agent.DefaultTimeout).
	CallTimeout time.Duration
	// Version is announced to clients.
	Version string
	// Logger receives reload failures and debug lines; nil discards.
	Logger *slog.Logger
	// ClaudeSubmit starts the submit MCP server for builtin.claude_cli
	// decide calls (agent.RegistryOptions.ClaudeSubmit).
	ClaudeSubmit []string
	// MaxCalls is how many tool calls run at once (0 = DefaultMaxCalls);
	// the others wait for a slot until their client cancels them.
	MaxCalls int
	// MaxSessions is how many HTTP sessions are open at once (0 =
	// DefaultMaxSessions); a client asking for one more is refused (503)
	// unless a session idle for SessionIdle can be ended.
	MaxSessions int
	// SessionIdle is how long an HTTP session may have no request under
	// way before it may be ended (0 = DefaultSessionIdle).
	SessionIdle time.Duration
	// Now is the sessions' clock (nil = time.Now).
	Now func() time.Time
	// HTTP bounds connections and slow clients of the HTTP transport.
	HTTP HTTPLimits
	// MaxResult is the largest tool result, encoded, a call answers (0 =
	// DefaultMaxResult); past it the call answers a tool error. Tests
	// lower it to prove the rule with small answers.
	MaxResult int
	// MaxQueued is how many bytes of requests the stdio transport holds
	// read and not yet answered (0 = DefaultMaxQueued); past it a request
	// is answered an error. Tests lower it to prove the rule with small
	// requests.
	MaxQueued int
	// CostFloor is the floor of the limit on what a message's params or a
	// tool call's arguments would take once read (0 = jsoncost.Floor; see
	// jsoncost.Over). Tests lower it to prove the rule with small messages.
	CostFloor int64
}

// Server is a running catalog of story agent tools behind an MCP server.
type Server struct {
	opts       Options
	mcp        *mcp.Server
	log        *slog.Logger
	generation string
	revision   atomic.Uint64
	session    string

	slots   chan struct{} // one per running call (takeSlot)
	waiting atomic.Int64  // calls waiting for a slot

	calls     context.Context    // every call's context is also cancelled by ...
	stopCalls context.CancelFunc // ... this, which Close calls first
	bySession sessionCalls       // and by the end of its HTTP session

	reloadMu sync.Mutex // one reload at a time
	mu       sync.Mutex // guards cur, closed
	cur      *Catalog   // its tools are the ones the SDK server lists
	closed   bool
}

// New loads the story and profile and builds the first catalog. Unlike a
// later reload, a failure here is an error: the story must load, the
// profile must parse and the tool names must be valid and distinct.
func New(opts Options) (*Server, error) {
	log := cmp.Or(opts.Logger, slog.New(slog.NewTextHandler(io.Discard, nil)))
	var g [6]byte
	_, _ = rand.Read(g[:])
	s := &Server{opts: opts, log: log, generation: hex.EncodeToString(g[:]), slots: make(chan struct{}, cmp.Or(max(opts.MaxCalls, 0), DefaultMaxCalls))}
	s.session = "mcp-" + s.generation
	s.calls, s.stopCalls = context.WithCancel(context.Background())
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "kitsoki", Version: cmp.Or(opts.Version, "dev")}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}})
	s.mcp.AddReceivingMiddleware(s.guardPanics, s.refreshOnRequest)
	c, err := s.build()
	if err != nil {
		return nil, err
	}
	s.Apply(c)
	return s, nil
}

// MCP returns the SDK server (for transports and tests).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Current returns the current catalog.
func (s *Server) Current() *Catalog {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// build loads story + profile and returns a new catalog with the next
// revision. It does not apply it.
func (s *Server) build() (*Catalog, error) {
	rev := s.revision.Add(1)
	c := &Catalog{Generation: s.generation, Revision: rev, Tools: map[string]*Tool{}}
	// The same composition root as kitsoki run (pkg/compose), strict:
	// there is no run to warn before, so any error refuses the story.
	ld, lerr := compose.Load(s.opts.StoryPath, compose.LoadOptions{NoCompile: true, Strict: true, Story: story.Options{Root: s.opts.Root}})
	var st *story.Story
	var sle *compose.LoadError
	if lerr == nil {
		st = ld.Story
	} else if errors.As(lerr, &sle) {
		st = sle.Story
	}
	c.files = []string{story.ManifestPath(s.opts.StoryPath)}
	if st != nil {
		c.files = slices.Clone(st.Manifests)
	}
	c.files = append(c.files, plugin.WatchFiles(s.dir(st), s.opts.ProfilePath)...)
	c.root = s.projectRoot(st)
	fail := func(err error) (*Catalog, error) {
		c.print = fingerprint(c.root, c.files)
		return c, err
	}
	if lerr != nil {
		var msgs []string
		if sle != nil {
			for _, d := range sle.Diagnostics {
				msgs = append(msgs, d.String())
			}
		}
		return fail(fmt.Errorf("%s: the story does not load:\n%s", s.opts.StoryPath, strings.Join(msgs, "\n")))
	}
	plan, err := compose.ResolveWith(ld, compose.ResolveOptions{Profile: s.opts.ProfilePath})
	if err != nil {
		return fail(err)
	}
	asm := plan.Assembly
	schemas := schema.NewStoryCompiler(st.Dir, st.Patterns())
	tools, err := buildTools(st, asm, schemas)
	if err != nil {
		return fail(err)
	}
	for _, t := range tools {
		for _, p := range t.Schemas {
			if p != "" {
				c.files = append(c.files, filepath.Join(st.Dir, "schemas", strings.TrimPrefix(p, "schemas/")))
			}
		}
	}
	c.print = fingerprint(c.root, c.files)
	// Only enabled aliases get a transport: a disabled one is never built.
	rt, err := plan.BuildWith(compose.DispatchOptions{
		BuildOptions: compose.BuildOptions{ClaudeSubmit: s.opts.ClaudeSubmit, CallTimeout: s.opts.CallTimeout},
		AgentSink:    s.opts.Sink, Logger: s.log, Schemas: schemas})
	if err != nil {
		return c, err
	}
	c.story, c.asm, c.reg, c.chain, c.Tools = st, asm, rt.Agents, rt.Chain, tools
	return c, nil
}

// Apply makes c the current catalog unless a newer one is already current
// (a stale refresh never restores removed tools). It reports whether c
// was applied. The SDK's tool set is updated, which sends
// notifications/tools/list_changed to connected clients.
func (s *Server) Apply(c *Catalog) bool {
	old, applied := s.swap(c)
	if !applied {
		c.close()
		return false
	}
	if old != nil {
		go func() {
			defer s.survive("closing the replaced catalog", "closing its transports")
			old.inflight.Wait()
			old.close()
		}()
	}
	return true
}

// swap makes c current and the SDK's tools c's, unless the server is
// closed or a newer catalog is current, and returns the one it replaced.
// s.mu is released by a defer: the SDK's AddTool panics on a tool it
// refuses, and a request's recovered panic (guardPanics) must not leave
// every later request waiting on the lock.
func (s *Server) swap(c *Catalog) (old *Catalog, applied bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || (s.cur != nil && c.Generation == s.cur.Generation && c.Revision <= s.cur.Revision) {
		return nil, false
	}
	old = s.cur
	s.cur = c
	var gone []string
	if old != nil {
		for name := range old.Tools {
			if c.Tools[name] == nil {
				gone = append(gone, name)
			}
		}
	}
	for _, name := range c.Names() {
		s.mcp.AddTool(s.mcpTool(c, c.Tools[name]), s.handler(name))
	}
	if len(gone) > 0 {
		s.mcp.RemoveTools(gone...)
	}
	return old, true
}

func (s *Server) mcpTool(c *Catalog, t *Tool) *mcp.Tool {
	desc := fmt.Sprintf("Ask the story agent %s to %s (host.agent.%s; call sites: %s). Single attempt: a failed call is not retried.",
		t.Alias, t.Verb, t.Verb, strings.Join(t.Sites, ", "))
	if t.OutputOmitted != "" {
		desc += fmt.Sprintf(" The answer is validated against %s, which is not published as the outputSchema: %s.", t.Schemas[0], t.OutputOmitted)
	}
	mt := &mcp.Tool{Name: t.Name, Description: desc, InputSchema: t.inputSchema(),
		Meta: mcp.Meta{"kitsoki/generation": c.Generation, "kitsoki/revision": c.Revision, "kitsoki/alias": t.Alias}}
	if len(t.Output) > 0 {
		mt.OutputSchema = t.Output
	}
	return mt
}

func (s *Server) reloadLocked() error {
	c, err := s.build()
	if err != nil {
		if c.reg != nil {
			c.close()
		}
		c = &Catalog{Generation: c.Generation, Revision: c.Revision, Tools: map[string]*Tool{}, Err: err.Error(), files: c.files, root: c.root, print: c.print}
		s.log.Error("kitsoki mcp serve: reload failed; serving no tools until it is fixed", slog.String("error", err.Error()))
	}
	s.Apply(c)
	return err
}

// Refresh reloads when the story, profile, manifests or schemas changed
// on disk since the current catalog was built.
func (s *Server) Refresh() error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	cur := s.Current()
	if cur != nil && fingerprint(cur.root, cur.files) == cur.print && s.sameSet(cur) {
		return nil
	}
	return s.reloadLocked()
}

// sameSet reports whether the profile/manifests set is unchanged (a new
// profile file or manifest directory appearing counts as a change).
func (s *Server) sameSet(c *Catalog) bool {
	for _, f := range plugin.WatchFiles(s.dir(c.story), s.opts.ProfilePath) {
		if !slices.Contains(c.files, f) {
			return false
		}
	}
	return true
}

// Watch polls for changes every interval until ctx ends.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.watchRefresh()
		}
	}
}

// watchRefresh is the watcher's Refresh: a panic in the reload (the
// story's load, the profile's) is logged and the watcher goes on.
func (s *Server) watchRefresh() {
	defer s.survive("the watcher", "the reload")
	_ = s.Refresh()
}

// Close stops serving: the calls under way are cancelled (a plugin that
// never answers does not hold the shutdown up to its call timeout), then
// the current catalog's transports and hook processes are closed once
// those calls have returned.
func (s *Server) Close() error {
	var cur *Catalog
	if !closeonce.Mark(&s.mu, &s.closed, func() { cur = s.cur }) {
		return nil
	}
	s.StopCalls()
	if cur != nil {
		cur.inflight.Wait()
		cur.close()
	}
	return nil
}

// StopCalls cancels the calls under way and every later one: a server
// stopping (Close, or a signal its command caught) does not wait on a
// plugin that never answers.
func (s *Server) StopCalls() { s.stopCalls() }

// errShuttingDown answers a call that arrives, or was under way, when the
// server stops.
var errShuttingDown = errors.New("the server is shutting down")

// acquire returns the current catalog with an in-flight reference.
func (s *Server) acquire() (*Catalog, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.cur == nil {
		return nil, errShuttingDown
	}
	s.cur.inflight.Add(1)
	return s.cur, nil
}

// handler answers the calls of tool name, each one turn 1 of the server's
// session. refreshOnRequest has re-read the files before the call got here.
func (s *Server) handler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c, err := s.acquire()
		if err != nil {
			return toolError(err.Error()), nil
		}
		defer c.inflight.Done()
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		defer context.AfterFunc(s.calls, func() { cancel(errShuttingDown) })()
		if id := sessionID(req); id != "" {
			sctx, leave := s.bySession.enter(id)
			defer leave()
			defer context.AfterFunc(sctx, func() { cancel(context.Cause(sctx)) })()
		}
		t := c.Tools[name]
		if t == nil {
			return notOffered(c, name), nil
		}
		if ag, ok := c.asm.Agent(t.Alias); !ok || !ag.Enabled {
			return toolError(fmt.Sprintf("tool %s is not available: agent %s is disabled (%s)", name, t.Alias, ag.Reason)), nil
		}
		var raw json.RawMessage
		if req != nil && req.Params != nil {
			raw = req.Params.Arguments
		}
		prompt, args, schemaPath, err := t.checkInput(raw, s.opts.CostFloor)
		if err != nil {
			return toolError(name + ": invalid input: " + err.Error()), nil
		}
		with := map[string]any{"prompt": prompt}
		if args != nil {
			with["args"] = args
		}
		if schemaPath != "" {
			with["schema"] = schemaPath
		}
		release, err := s.takeSlot(ctx)
		if err != nil {
			return toolError(name + ": " + err.Error()), nil
		}
		defer release()
		res, err := c.reg.Dispatch(ctx, agent.Call{Alias: t.Alias, Verb: t.Verb, SessionID: s.session, Turn: 1,
			StatePath: "mcp." + name, Prompt: prompt, SchemaPath: schemaPath, With: with})
		if err != nil {
			return toolError(err.Error()), nil
		}
		out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(res.Submission)}},
			Meta: mcp.Meta{"kitsoki/call_id": res.CallID, "kitsoki/revision": c.Revision}}
		if _, isObj := res.Value.(map[string]any); isObj || len(t.Output) > 0 {
			out.StructuredContent = res.Value
		}
		return boundResult(name, out, len(res.Submission), cmp.Or(max(s.opts.MaxResult, 0), DefaultMaxResult)), nil
	}
}

// sessionID is the HTTP session of req ("" over stdio, which has one).
func sessionID(req *mcp.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	return req.Session.ID()
}

func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// HTTPHandler serves the MCP streamable HTTP transport. A non-empty token
// requires "Authorization: Bearer <token>" on every request, checked
// before the body is read. A body must arrive within Options.HTTP.Body
// and hold at most MaxRequestBody bytes (http_serve.go). At most
// Options.MaxSessions sessions are open at once (sessions.go).
func (s *Server) HTTPHandler(token string) http.Handler {
	lim := s.opts.HTTP.withDefaults(s.opts.MaxSessions)
	h := readBody(newSessions(s).wrap(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)), lim.Body)
	if token != "" {
		h = bearerOnly(h, token)
	}
	return bodyDeadline(h, lim.Body)
}

// bearerOnly passes next only the requests carrying the bearer token.
func bearerOnly(next http.Handler, token string) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="kitsoki"`)
			http.Error(w, "kitsoki mcp serve: missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// dir is the directory of the story st (nil: of the story argument, which
// did not load).
func (s *Server) dir(st *story.Story) string {
	if st != nil {
		return st.Dir
	}
	return filepath.Dir(story.ManifestPath(s.opts.StoryPath))
}
