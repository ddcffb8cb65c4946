package flowtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
	"kitsoki/internal/scratchdir"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/trace"
)

// machine is the fixture's story, rebound to its host_bindings; false
// when the story's compilation fails the fixture.
func (fr *fixtureRun) machine() (*compose.Loaded, bool) {
	fx, ld := fr.fx, fr.ld
	if len(fx.HostBindings) > 0 {
		if kv, ok := emptyBinding(ld, fx.HostBindings); ok {
			fr.fatal(kv.Pos, "host_bindings.%s: an empty handler name leaves host_interface %q with no handler "+
				"(upstream stops the whole run: host_interface %q: no default and no host_binding override); "+
				"name a handler (host.x) or drop the key", kv.Key, kv.Key, kv.Key)
			return nil, false
		}
		ld = rebind(ld, fx.HostBindings)
	}
	if ld.CompileErr != nil {
		fr.unsupported(compileFailures(ld.CompileErr, fx.Pos))
		return nil, false
	}
	fr.m = ld.Machine
	return ld, true
}

// loadRecording loads the recording input: turns read (the fixture's, or
// --recording), relative to the fixture's directory (flow-format.md §6.6).
func (fr *fixtureRun) loadRecording() bool {
	fx := fr.fx
	p := fr.r.opts.Recording
	if p == "" && fx.Recording == "" {
		return true
	}
	if !fx.opensRecording() {
		return true
	}
	full := fr.fx.rel(p) // --recording: the operator's choice
	if p == "" {
		p = fx.Recording
		var in bool
		if full, in = fr.named("recording", p); !in {
			return false
		}
	}
	rec, err := fr.recording(full, p == fx.Recording)
	if err != nil {
		fr.recordingProblem(fx.valueAt("recording"), "%v", err)
		if fr.res.Flow.Skipped {
			fr.res.Flow.Turns = nil
		}
		return false
	}
	fr.rec = rec
	return true
}

// loadCassettes loads the fixture's host and Starlark cassettes; on the
// legacy path, where no host runs, upstream reads none, but each path must
// still stay inside the project root.
func (fr *fixtureRun) loadCassettes() bool {
	fx := fr.fx
	ok := true
	if fr.legacy {
		for _, nf := range fx.cassettes() {
			if nf.path == "" {
				continue
			}
			if _, in := fr.named(nf.key, nf.path); !in {
				return false
			}
		}
		return true
	}
	if fx.HostCassette != "" {
		fr.hc, ok = loadNamed(fr, "host_cassette", fx.HostCassette, func(r *safefile.Root, path string) (*compose.HostCassette, error) {
			data, err := compose.ReadFlowHostCassette(r, path)
			if err != nil {
				return nil, err
			}
			hc, err := fr.hostCassette(path, data)
			if hc != nil {
				hc.AppendIn(r.Dir())
			}
			return hc, err
		})
		if ok {
			ok = fr.cassetteEnv()
		}
	}
	if ok && fx.StarlarkHTTPCassette != "" {
		fr.star.HTTPCassette, ok = loadNamed(fr, "starlark_http_cassette", fx.StarlarkHTTPCassette, readParsed(fr.httpCassette))
		ok = ok && fr.httpCassetteEnv()
	}
	if ok && fx.StarlarkInspectCassette != "" {
		fr.star.Inspect, ok = loadNamed(fr, "starlark_inspect_cassette", fx.StarlarkInspectCassette, readParsed(fr.inspectCassette))
	}
	return ok
}

// cassetteEnv applies KITSOKI_CASSETTE_RECORD and KITSOKI_CASSETTE_STRICT
// to the fixture's host cassette, as upstream's flow rig does (CI may set
// them); a refusal fails the fixture (upstream ends the whole run).
func (fr *fixtureRun) cassetteEnv() bool {
	strict := os.Getenv("KITSOKI_CASSETTE_STRICT")
	if err := fr.hc.FlowRecordMode(os.Getenv("KITSOKI_CASSETTE_RECORD"), strict == "1" || strict == "true"); err != nil {
		fr.fatal(fr.fx.at("host_cassette"), "host_cassette: %v", err)
		return false
	}
	return true
}

// readParsed is a loader that reads a file through its root within the
// size limit and parses it.
func readParsed[T any](parse func(string, []byte) (T, error)) func(*safefile.Root, string) (T, error) {
	return func(r *safefile.Root, path string) (T, error) {
		data, err := readIn(r, path)
		if err != nil {
			var zero T
			return zero, confinedErr(r, "file", path, err)
		}
		return parse(path, data)
	}
}

// recording loads the recording at full: a fixture's (named) through
// the root its path was confined to, --recording's by its path.
func (fr *fixtureRun) recording(full string, named bool) (*Recording, error) {
	if !named {
		data, err := readBounded(full)
		if err != nil {
			return nil, recordingReadErr(full, err)
		}
		return fr.parsedRecording(full, data)
	}
	r := safefile.NewRoot(fr.root())
	defer r.Close()
	data, err := readIn(r, full)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return nil, confinedErr(r, "recording", full, err)
	}
	if err != nil {
		return nil, recordingReadErr(full, err)
	}
	return fr.parsedRecording(full, data)
}

// loadNamed loads p, named under key, inside the project root, reading it
// through the root (a link swapped in on the way since the path was
// checked is refused, never followed); false, the fixture failed at key,
// when it cannot.
func loadNamed[T any](fr *fixtureRun, key, p string, load func(*safefile.Root, string) (T, error)) (T, bool) {
	var v T
	full, in := fr.named(key, p)
	if !in {
		return v, false
	}
	r := safefile.NewRoot(fr.root())
	defer r.Close()
	v, err := load(r, full)
	if err != nil {
		fr.fatal(fr.fx.valueAt(key), "%s: %v", key, err)
		return v, false
	}
	return v, true
}

// traceSink is the session's trace file under --trace-dir, else a sink that drops events.
func (fr *fixtureRun) traceSink() (sink engine.Sink, closeTrace func(), ok bool) {
	fx := fr.fx
	sink = engine.SinkFunc(func(engine.Event) error { return nil })
	dir := fr.r.opts.TraceDir
	if dir == "" {
		return sink, func() {}, true
	}
	path := filepath.Join(dir, traceName(fx)+".jsonl")
	// a test trace is not a durable record: never fsynced
	topt := fr.r.opts.TraceBound
	topt.Sync = trace.SyncNever
	tw, err := trace.CreateWith(path, trace.Header{AppID: fr.m.AppID, Story: fx.Story, Generator: fr.r.opts.Generator}, topt)
	if err != nil {
		fr.fatal(fx.Pos, "--trace-dir: %v", err)
		return nil, nil, false
	}
	fr.res.Trace = path
	return compose.TraceSink(tw), func() { tw.Close() }, true
}

// workDir is where real handlers write: the run's shared directory
// (--workdir, or sharedWorkDir's), or a fresh temporary directory of the
// fixture's own (so parallel fixtures share nothing) that remove deletes.
func (fr *fixtureRun) workDir() (dir string, remove func(), ok bool) {
	if dir := fr.sharedWD; dir != "" {
		return dir, func() {}, true
	}
	tmp, remove, err := scratchdir.Make(WorkDirPrefix)
	if err != nil {
		fr.fatal(fr.fx.Pos, "working directory: %v", err)
		return "", nil, false
	}
	return tmp, remove, true
}

// initialWorld is the story's world, the rig's seeded keys and the fixture's initial_world.
func (fr *fixtureRun) initialWorld() (map[string]any, bool) {
	world, err := rigWorld(fr.m, fr.fx, fr.legacy)
	if err != nil {
		fr.fatal(fr.fx.Pos, "%v", err)
		return nil, false
	}
	return world, true
}

// rigWorld is the world the rig starts fx's session on (legacy: on the
// legacy path): m's, the rig's seeded keys and the fixture's
// initial_world, each value the Go type the rig gives it. The lint's
// engine replay starts a first turn on it too (lint_par_replay.go).
func rigWorld(m *engine.Machine, fx *Fixture, legacy bool) (map[string]any, error) {
	world, err := engine.InitWorld(m.World, nil, nil)
	if err != nil {
		return nil, err
	}
	seedRig(world)
	for _, kv := range fx.InitialWorld {
		v := jsonvalue.CopyNilAsEmpty(kv.Value)
		if legacy {
			v = yamlWhole(v)
		}
		world[kv.Key] = v
	}
	return world, nil
}

func (fr *fixtureRun) sessionOptions(ld *compose.Loaded, reg *host.Registry, world map[string]any, agents engine.AgentCaller, sink engine.Sink, workDir string) engine.SessionOptions {
	fx := fr.fx
	o := engine.SessionOptions{
		Options: engine.Options{SessionID: fr.sessionID(), World: world, Agents: agents, HostReplay: fr.hc, Sink: sink, NoSnapshot: true,
			Observer: fr.r.opts.Observer, Strict: fr.r.opts.Strict, NoAgentHandlers: len(fx.HostBindings) == 0},
		StartState: fx.InitialState, Hosts: reg, Clock: engine.NewVirtualClock(epoch), WorkDir: workDir,
		// upstream arms only a seeded initial_state's timeout, not descending a compound
		UnarmedStart: fx.InitialState == "", StartFlat: fx.InitialState != "",
	}
	for _, kv := range fx.InitialWorld {
		o.Seeded = append(o.Seeded, kv.Key)
	}
	// the legacy path is upstream's machine alone (flow-format.md §1.3),
	// which ignores mode; "oneshot" is upstream's other spelling
	o.MachineOnly = fr.legacy
	if !fr.legacy {
		switch fx.Mode {
		case "staged":
			o.Mode = engine.ModeStaged
		case "one-shot", "oneshot":
			o.Mode = engine.ModeOneShot
		}
	}
	if ld.Views != nil {
		o.Views = ld.Views
	}
	return o
}

// registry is the fixture's host registry (flow-format.md §4.4-4.5): the
// stubs over the real answer_clarification (or every builtin, with
// host_bindings); on the legacy path only handlers that drop every call.
func (fr *fixtureRun) registry(fx *Fixture) *host.Registry {
	reg := host.NewRegistry()
	if fr.legacy {
		// a guard only: agent verbs by exact name, as the engine routes
		// them to its agent layer unless a handler has the name
		reg.Register("host", dropHandler)
		for _, v := range []string{"ask", "decide", "extract", "task", "converse", "search"} {
			reg.Register("host.agent."+v, dropHandler)
		}
		return reg
	}
	// ctx.http answers from the cassette or fails; a recording cassette
	// sends what it lacks to the network, as upstream (not under --sandbox)
	fr.star.NoNetwork = fr.r.opts.Sandbox || !fr.star.HTTPCassette.Recording()
	if len(fx.HostBindings) > 0 {
		fr.registerBuiltins(reg)
	} else if h, _, _, ok := host.Builtins(host.Options{}).Lookup(host.HandlerJobsAnswer); ok {
		reg.Register(host.HandlerJobsAnswer, h)
	}
	if fx.StarlarkHTTPCassette != "" || fx.StarlarkInspectCassette != "" {
		// the real script runs; only its ctx.http / ctx.fs / ctx.probe traffic is replayed
		reg.Register(host.HandlerStarlarkRun, host.NewStarlarkRun(fr.star))
	}
	for _, s := range fx.HostHandlers {
		reg.Register(s.Name, s.Handler())
	}
	if len(fx.HostBindings) == 0 {
		servePrefixAgentVerbs(reg)
	} else if fr.hc != nil {
		fr.hc.FallBack(realHandler(reg))
	}
	return reg
}

// realHandler reports the handlers whose real built-in (or, for an agent
// verb, real agent) answers a host cassette's miss under host_bindings: a
// handler registered under that exact name (conformance
// cassette-miss-real-handler).
func realHandler(reg *host.Registry) func(string) bool {
	return func(h string) bool {
		if v, ok := strings.CutPrefix(h, "host.agent."); ok && slices.Contains(agentVerbs, v) {
			return true
		}
		_, served, _, ok := reg.Lookup(h)
		return ok && served == h
	}
}

// agentVerbs are the host.agent.<verb> names the engine's agent layer answers.
var agentVerbs = []string{"ask", "decide", "extract", "task", "converse"}

// servePrefixAgentVerbs registers under its exact name each agent verb a
// stub serves by prefix, with op the verb, as upstream's longest-prefix
// lookup does (see testdata/conformance/host-agent-prefix-stub).
func servePrefixAgentVerbs(reg *host.Registry) {
	for _, v := range []string{"ask", "ask_with_mcp", "converse", "decide", "extract", "task"} {
		name := "host.agent." + v
		h, _, op, ok := reg.Lookup(name)
		if !ok || op == "" {
			continue
		}
		reg.Register(name, host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
			pc := *c
			pc.Op = op
			if _, set := c.Args["op"]; !set {
				pc.Args = maps.Clone(c.Args)
				if pc.Args == nil {
					pc.Args = map[string]any{}
				}
				pc.Args["op"] = op
			}
			return h.Call(ctx, &pc)
		}))
	}
}

// agents is the fixture's agent layer: no agent starts, so a call no stub
// or cassette episode answers is an unregistered handler's infra error
// (see testdata/conformance/cassette-agent-answers). A cassette episode
// naming an agent alias (match.handler agent.<name>) answers nothing
// here, as upstream (conformance cassette-alias-episode-unplayed): only
// kitsoki run --cassette plays those.
func (fr *fixtureRun) agents(sink engine.Sink) (engine.AgentCaller, func(), error) {
	if fr.legacy || len(fr.fx.HostBindings) == 0 {
		return noAgentHandlers{}, func() {}, nil
	}
	// a cassette's miss falls back to the real agent (realHandler)
	return fr.realAgents(sink)
}

// noAgentHandlers is upstream's flow rig without host_bindings: no
// host.agent.<verb> handler is registered, so an agent call no stub or
// cassette episode answers fails before its prompt is read.
type noAgentHandlers struct{}

func (noAgentHandlers) CallAgent(_ context.Context, c engine.AgentCall) (*engine.AgentAnswer, error) {
	return nil, noAgentHandlers{}.Unregistered(c.Verb)
}

func (noAgentHandlers) Unregistered(verb string) error {
	return fmt.Errorf("host: no handler registered for %q", "host.agent."+verb)
}

var slugRE = &lazyre.Regexp{Expr: `[^A-Za-z0-9._-]+`}

func slug(s string) string { return strings.Trim(slugRE.ReplaceAllString(s, "_"), "_") }

// traceName is a fixture's --trace-dir file name: its path with separators
// folded, plus a hash of the path when folding lost anything ("é" and "ü",
// or a "__"), so two fixtures never share a trace.
func traceName(fx *Fixture) string {
	name := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(fx.File)), ".yaml")
	name = strings.TrimLeft(strings.ReplaceAll(name, "../", ""), "./")
	if fx.Docs > 1 {
		name += fmt.Sprintf("-%d", fx.Doc)
	}
	folded := strings.ReplaceAll(name, "/", "__")
	out := slug(folded)
	if out != folded || strings.Contains(name, "__") {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", filepath.ToSlash(filepath.Clean(fx.File)), fx.Doc)))
		out += "-" + hex.EncodeToString(sum[:4])
	}
	return out
}

// rebind is the story recompiled with the fixture's host_bindings as its
// interfaces' defaults (upstream reloads the app with them). A key the
// top story does not declare may name an interface an import lifted
// (`<alias>__<iface>`, `<alias>__<grandchild>__<iface>`): the fold binds
// it after the imports' own host_bindings, so the fixture's wins, and a
// name it lifted none of is ignored, as upstream (conformance
// fixture-bindings-lifted).
func rebind(ld *compose.Loaded, binds []KV) *compose.Loaded {
	st := *ld.Story
	st.HostInterfaces = maps.Clone(ld.Story.HostInterfaces)
	var lifted map[string]string
	changed := false
	for _, kv := range binds {
		to, _ := kv.Value.(string)
		hi, ok := st.HostInterfaces[kv.Key]
		if !ok && len(st.Imports) > 0 && strings.Contains(kv.Key, "__") {
			if lifted == nil {
				lifted = map[string]string{}
			}
			lifted[kv.Key] = to
			continue
		}
		if !ok || hi == nil || hi.Default == to {
			continue
		}
		cp := *hi
		cp.Default = to
		st.HostInterfaces[kv.Key] = &cp
		changed = true
	}
	if !changed && lifted == nil {
		return ld
	}
	out := &compose.Loaded{Path: ld.Path, Story: &st, Diagnostics: ld.Diagnostics, Views: ld.Views}
	out.Compile(engine.CompileOptions{LateHandlers: true, Bindings: lifted})
	return out
}
