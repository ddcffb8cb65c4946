package engine

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/pkg/host"
)

// compileProbe compiles testdata/probes/<name> with late handlers (the
// flow rig's compile).
func compileProbe(t *testing.T, name string) *Machine {
	t.Helper()
	m, err := Compile(loadStory(t, "probes/"+name), CompileOptions{LateHandlers: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// probe starts a session on testdata/probes/<name> with a virtual clock,
// the given stubs and no bootstrap (the flow rig's shape).
func probe(t *testing.T, name, startState string, stubs map[string]host.Handler) (*Session, *recSink) {
	t.Helper()
	reg := host.NewRegistry()
	PrepareHosts(reg)
	for n, h := range stubs {
		reg.Register(n, h)
	}
	return probeWith(t, name, SessionOptions{StartState: startState, Hosts: reg})
}

// probeWith is probe with the session's options (a sink, a virtual clock
// and the default hosts filled in).
func probeWith(t *testing.T, name string, so SessionOptions) (*Session, *recSink) {
	t.Helper()
	m := compileProbe(t, name)
	sink := &recSink{}
	so.Sink = sink
	if so.Hosts == nil {
		so.Hosts = host.NewRegistry()
		PrepareHosts(so.Hosts)
	}
	so.Clock = NewVirtualClock(time.Unix(0, 0))
	s, err := Start(t.Context(), m, so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, sink
}

func fire(t *testing.T, s *Session, intent string) *Turn {
	t.Helper()
	tn, err := s.Fire(t.Context(), Input{Intent: intent})
	if err != nil {
		t.Fatalf("fire %s: %v", intent, err)
	}
	return tn
}

func advance(t *testing.T, s *Session, d time.Duration) *Turn {
	t.Helper()
	tn, err := s.Advance(t.Context(), d)
	if err != nil {
		t.Fatalf("advance %s: %v", d, err)
	}
	return tn
}

func wantState(t *testing.T, s *Session, want string) {
	t.Helper()
	if got := s.State(); got != want {
		t.Fatalf("state %q, want %q", got, want)
	}
}

// startHosts starts a session on m whose registry holds only hosts (no
// PrepareHosts, real clock), closed when the test ends.
func startHosts(t *testing.T, m *Machine, hosts map[string]host.Handler) *Session {
	t.Helper()
	reg := host.NewRegistry()
	for n, h := range hosts {
		reg.Register(n, h)
	}
	s, err := Start(t.Context(), m, SessionOptions{Hosts: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// wantLogEnds fails unless the world's log (the probes' trace of entries
// and transitions) ends with suffix.
func wantLogEnds(t *testing.T, s *Session, suffix string) {
	t.Helper()
	if log, _ := s.World()["log"].(string); !strings.HasSuffix(log, suffix) {
		t.Errorf("log = %q, want it to end with %q", log, suffix)
	}
}

func stub(data map[string]any, errMsg string, delay time.Duration) host.Handler {
	return host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
		return host.Result{Data: data, Error: errMsg, Delay: delay}, nil
	})
}

func kindsOf(evs []Event, kind string) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// The flow rig starts at the root leaf without running on_enter (§0).
func TestSessionStartsWithoutBootstrap(t *testing.T) {
	s, sink := probe(t, "p9", "", nil)
	wantState(t, s, "start")
	if len(sink.evs) != 0 || s.World()["log"] != "" {
		t.Fatalf("bootstrap ran: %v %v", sink.evs, s.World())
	}
}

// Entering a parallel state enters the root, then each region in name
// order; the state is the encoded path (§3.2-§3.3).
func TestParallelEnterAndEncodedPath(t *testing.T) {
	s, sink := probe(t, "p9", "", nil)
	fire(t, s, "enter")
	wantState(t, s, "p#p.a.a1|p.b.b1")
	if got := s.World()["log"]; got != "E:p;E:a;E:a1;E:b;E:b1;" {
		t.Errorf("log = %q", got)
	}
	if got := strings.Join(sink.entered(), " "); got != "p p.a p.a.a1 p.b p.b.b1" {
		t.Errorf("entered %s", got)
	}
}

// A region whose guard fails falls through to the next region (§3.4).
func TestParallelFirstWinningRegion(t *testing.T) {
	s, _ := probe(t, "p9", "", nil)
	fire(t, s, "enter")
	fire(t, s, "both")
	wantState(t, s, "p#p.a.a1|p.b.b2")
	wantLogEnds(t, s, "T:b.both;")
}

// emit: propagates to the other regions, chains, never back to its sender
// and the sender's own move comes last (§3.5).
func TestParallelEmitPropagation(t *testing.T) {
	s, _ := probe(t, "p9", "", nil)
	fire(t, s, "enter")
	tn := fire(t, s, "bonly")
	// as upstream (runtime-probes/traces/p9b.jsonl turn 2): b's new leaf
	// b2 is in place before propagation, so a's pong moves b on to b3;
	// b's own b1 -> b2 events come last, machine.transition.to is final
	wantState(t, s, "p#p.a.a2|p.b.b3")
	wantLogEnds(t, s, "T:bonly;T:a.ping;")
	var moves []string
	for _, e := range kindsOf(tn.Events, KindStateEntered) {
		moves = append(moves, e.StatePath)
	}
	if strings.Join(moves, " ") != "p.a.a2 p.b.b3 p.b.b2" {
		t.Errorf("entered this turn: %v", moves)
	}
	tr := kindsOf(tn.Events, KindTransition)
	if len(tr) != 1 || payloadMap(t, tr[0].Payload)["to"] != "p#p.a.a2|p.b.b3" {
		t.Errorf("transition %v", tr)
	}
}

// A target outside the parallel root exits it with one coarse exit event.
func TestParallelExitWhole(t *testing.T) {
	s, _ := probe(t, "p9", "", nil)
	fire(t, s, "enter")
	tn := fire(t, s, "out")
	wantState(t, s, "start")
	ex := kindsOf(tn.Events, KindStateExited)
	if len(ex) != 1 || ex[0].StatePath != "p" {
		t.Errorf("exited %v", ex)
	}
}

// A root handler targeting another region's state puts it in place of
// the first region's leaf, as upstream (⚠ §3.4; conformance par-cross
// root.yaml): two leaves of b, none of a.
func TestParallelRootHandlerReplacesFirstRegionLeaf(t *testing.T) {
	s, _ := probe(t, "p9", "", nil)
	fire(t, s, "enter")
	fire(t, s, "parent_go")
	wantState(t, s, "p#p.b.b1|p.b.b2")
}

// A parallel start state is taken as given.
func TestParallelStartState(t *testing.T) {
	s, _ := probe(t, "p9", "p#p.a.a2|p.b.b1", nil)
	wantState(t, s, "p#p.a.a2|p.b.b1")
	fire(t, s, "bonly")
	wantState(t, s, "p#p.a.a2|p.b.b2")
}

// The parallel root's timeout fires on virtual time; a region move re-arms it.
func TestParallelRootTimeout(t *testing.T) {
	s, _ := probe(t, "p9", "", nil)
	fire(t, s, "enter")
	advance(t, s, 4*time.Minute)
	fire(t, s, "both")
	advance(t, s, 4*time.Minute)
	wantState(t, s, "p#p.a.a1|p.b.b2")
	tn := advance(t, s, 2*time.Minute)
	wantState(t, s, "start")
	to := kindsOf(tn.Events, KindTimeout)
	if len(to) != 1 || payloadMap(t, to[0].Payload)["from"] != "p#p.a.a1|p.b.b2" {
		t.Errorf("timeout events %v", to)
	}
	// landed flat: the configuration is exited as its encoded path
	// (runtime-probes/traces/p9b.jsonl turn 5)
	wantMoves(t, tn.Events, "p#p.a.a1|p.b.b2", "start")
}

// A stay re-arms the timeout with a fresh deadline (§4).
func TestTimeoutStayRearms(t *testing.T) {
	s, _ := probe(t, "p3", "", nil)
	fire(t, s, "go_w")
	advance(t, s, 6*time.Minute)
	fire(t, s, "stay")
	advance(t, s, 6*time.Minute)
	wantState(t, s, "w")
	tn := advance(t, s, 5*time.Minute)
	wantState(t, s, "fired")
	if toString(s.World()["hits"]) != "1" {
		t.Errorf("hits = %v", s.World()["hits"])
	}
	var kinds []string
	for _, e := range tn.Events {
		kinds = append(kinds, e.Kind)
	}
	want := "turn.start machine.timeout machine.transition machine.state_exited world.update machine.state_entered turn.end"
	if got := strings.Join(kinds, " "); got != strings.Replace(want, "world.update machine.state_entered", "machine.state_entered world.update", 1) {
		t.Errorf("timeout turn events: %s", got)
	}
	end := payloadMap(t, tn.Events[len(tn.Events)-1].Payload)
	if end["outcome"] != "timeout" || end["to"] != "fired" {
		t.Errorf("turn.end %v", end)
	}
}

// A relative or templated timeout target never fires, as upstream, which
// looks it up as written (⚠ §4, runtime-probes p3 c.yaml, d.yaml): the
// advance fails nothing and the state stays.
func TestTimeoutTargetRelativeAndTemplated(t *testing.T) {
	s, _ := probe(t, "p3", "", nil)
	fire(t, s, "go_rel")
	if tn := advance(t, s, 2*time.Minute); tn.Err != nil || len(tn.Events) != 0 {
		t.Errorf("dead timeout: err %v, events %v", tn.Err, tn.Events)
	}
	wantState(t, s, "relc.r1")
	s2, _ := probe(t, "p3", "", nil)
	fire(t, s2, "go_tpl")
	advance(t, s2, 2*time.Minute)
	wantState(t, s2, "tpl")
}

// Advance never sleeps: ten days of virtual time pass at once.
func TestAdvanceTenDaysIsInstant(t *testing.T) {
	s, _ := probe(t, "p3", "w", nil)
	advance(t, s, 10*24*time.Hour)
	wantState(t, s, "fired")
}

// Background jobs complete when virtual time passes their stub delay;
// on_complete sets, says and takes the first passing target (§5).
func TestBackgroundJobCompletesOnVirtualTime(t *testing.T) {
	s, _ := probe(t, "p4", "", map[string]host.Handler{"host.slow": stub(map[string]any{"v": "OK"}, "", time.Second)})
	tn := fire(t, s, "bgok")
	wantState(t, s, "bg")
	jid, _ := s.World()["jid"].(string)
	if len(jid) != 26 || s.World()["last_job_id"] != jid {
		t.Fatalf("job id %q / %v", jid, s.World()["last_job_id"])
	}
	if len(kindsOf(tn.Events, KindJobSubmitted)) != 1 {
		t.Error("no scheduler.submitted")
	}
	if j := s.Jobs(); len(j) != 1 || j[0].Status != JobRunning {
		t.Fatalf("jobs %+v", j)
	}
	advance(t, s, 500*time.Millisecond)
	wantState(t, s, "bg")
	tn = advance(t, s, time.Second)
	wantState(t, s, "done")
	w := s.World()
	// the on_complete target entry's inline effects: never run, as
	// upstream (docs/compat/engine.md)
	if w["result"] != "OK" || w["st"] != "done" || w["inl"] == "inline-ran" {
		t.Errorf("world %v", w)
	}
	if j := s.Jobs(); j[0].Status != JobDone {
		t.Errorf("job status %s", j[0].Status)
	}
	start := payloadMap(t, tn.Events[0].Payload)
	if start["kind"] != "background_completion" || start["job_id"] != jid {
		t.Errorf("turn.start %v", start)
	}
	tr := kindsOf(tn.Events, KindTransition)
	if len(tr) != 1 || payloadMap(t, tr[0].Payload)["intent"] != "__on_complete_target__" {
		t.Errorf("transitions %v", tr)
	}
	var sev []string
	for _, n := range s.Inbox() {
		sev = append(sev, n.Severity)
	}
	if strings.Join(sev, ",") != "info,success" {
		t.Errorf("inbox severities %v", sev)
	}
}

// A failed job still exposes its data; the second target entry is taken.
func TestBackgroundJobFailure(t *testing.T) {
	s, _ := probe(t, "p4", "", map[string]host.Handler{"host.slowfail": stub(map[string]any{"v": "PARTIAL"}, "jobfail", time.Second)})
	fire(t, s, "bgfail")
	advance(t, s, 2*time.Second)
	wantState(t, s, "failed")
	if w := s.World(); w["result"] != "PARTIAL" || w["st"] != "failed" {
		t.Errorf("world %v", w)
	}
	if j := s.Jobs(); j[0].Status != JobFailed || j[0].Error != "jobfail" {
		t.Errorf("job %+v", j[0])
	}
}

// A job that ends after the session left its origin skips on_complete.
func TestBackgroundJobStale(t *testing.T) {
	s, _ := probe(t, "p4", "", map[string]host.Handler{"host.slow": stub(map[string]any{"v": "OK"}, "", time.Second)})
	fire(t, s, "bgstale")
	fire(t, s, "leave")
	advance(t, s, 2*time.Second)
	wantState(t, s, "start")
	if s.World()["st"] != "" {
		t.Errorf("stale on_complete ran: st = %v", s.World()["st"])
	}
}

// An on_error redirect inside on_complete wins over its target.
func TestBackgroundOnCompleteOnError(t *testing.T) {
	s, _ := probe(t, "p4", "", map[string]host.Handler{
		"host.slow": stub(map[string]any{"v": "OK"}, "", time.Second),
		"host.bad":  stub(nil, "boom", 0),
	})
	fire(t, s, "bgerr")
	advance(t, s, 2*time.Second)
	wantState(t, s, "errroom")
	if s.World()["last_error"] != "boom" {
		t.Errorf("last_error %v", s.World()["last_error"])
	}
}

// A clarification parks the job in awaiting_input with an action_required
// notification; the answer resumes it and the next advance completes it.
func TestBackgroundClarification(t *testing.T) {
	m := compileProbe(t, "bgjobs")
	reg := host.NewRegistry()
	PrepareHosts(reg)
	reg.Register("host.run", host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
		return host.Result{Data: map[string]any{"stdout": "clarification-done"}, Clarification: &host.Clarification{Question: "Which environment?"}}, nil
	}))
	s, err := Start(t.Context(), m, SessionOptions{StartState: "lobby", Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fire(t, s, "enter")
	advance(t, s, 10*time.Millisecond)
	if j := s.Jobs(); j[0].Status != JobAwaiting || j[0].Question != "Which environment?" {
		t.Fatalf("job %+v", j[0])
	}
	unread, attention := s.r.inbox.counts()
	if unread != 2 || attention != 1 {
		t.Errorf("inbox %d/%d", unread, attention)
	}
	jid := s.World()["last_job_id"].(string)
	tn, err := s.Fire(t.Context(), Input{Intent: "answer_clarification", Slots: map[string]any{"job_id": jid, "answer": "prod"}})
	if err != nil || tn.Rejection != nil || tn.Err != nil {
		t.Fatalf("answer: %+v %v", tn, err)
	}
	if j := s.Jobs(); j[0].Status != JobRunning {
		t.Errorf("after answer: %+v", j[0])
	}
	advance(t, s, 250*time.Millisecond)
	if j := s.Jobs(); j[0].Status != JobDone || s.World()["result"] != "clarification-done" {
		t.Errorf("after advance: %+v world %v", j[0], s.World())
	}
	// answering again is a domain error
	tn, _ = s.Fire(t.Context(), Input{Intent: "answer_clarification", Slots: map[string]any{"job_id": jid, "answer": "x"}})
	if le, _ := s.World()["last_error"].(string); !strings.Contains(le, "is not awaiting_input (status=done)") {
		t.Errorf("last_error %q (turn %+v)", le, tn.Rejection)
	}
}

// With the wall clock, jobs run concurrently on their own goroutines and
// Wait applies each completion (run with -race).
func TestBackgroundJobsConcurrentRealClock(t *testing.T) {
	m := compileProbe(t, "p4")
	var mu sync.Mutex
	inFlight, peak := 0, 0
	release := make(chan struct{})
	s := startHosts(t, m, map[string]host.Handler{"host.slow": host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		<-release
		mu.Lock()
		inFlight--
		mu.Unlock()
		return host.Result{Data: map[string]any{"v": "OK"}}, nil
	})})
	fire(t, s, "bgstale") // job 1, origin bg2
	fire(t, s, "leave")
	fire(t, s, "bgok") // job 2, origin bg
	for {
		mu.Lock()
		n := inFlight
		mu.Unlock()
		if n == 2 {
			break
		}
		time.Sleep(time.Millisecond) // polling for a condition, not a timing assumption
	}
	close(release)
	if err := s.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	if peak != 2 {
		t.Errorf("peak concurrency %d", peak)
	}
	wantState(t, s, "done")
	for _, j := range s.Jobs() {
		if j.Status != JobDone {
			t.Errorf("job %+v", j)
		}
	}
}

// Rejections are answers with the codes of §1.4; a missing required slot
// writes no event and uses no turn number.
func TestRejectionCodes(t *testing.T) {
	s, sink := probe(t, "p9", "", nil)
	tn := fire(t, s, "pong")
	if tn.Rejection == nil || tn.Rejection.Code != CodeNotAllowed || tn.Rejection.Message != `intent "pong" is not allowed in state "start"` {
		t.Fatalf("rejection %+v", tn.Rejection)
	}
	end := payloadMap(t, tn.Events[len(tn.Events)-1].Payload)
	if end["outcome"] != "rejected" || end["code"] != CodeNotAllowed {
		t.Errorf("turn.end %v", end)
	}
	fire(t, s, "enter")
	tn = fire(t, s, "pong")
	if tn.Rejection == nil || tn.Rejection.Code != CodeNotAllowed || tn.Rejection.State != "p" {
		t.Errorf("parallel rejection %+v", tn.Rejection)
	}
	_ = sink
	s2, sink2 := probe(t, "../slots", "", nil)
	n := len(sink2.evs)
	tn, _ = s2.Fire(t.Context(), Input{Intent: "paint"})
	if tn.Rejection == nil || tn.Rejection.Code != CodeMissingSlots || len(tn.Rejection.MissingSlots) != 1 || len(sink2.evs) != n || tn.Number != 0 {
		t.Errorf("missing slots: %+v events %d", tn.Rejection, len(sink2.evs)-n)
	}
}

// A turn-fatal error leaves state and world as they were (§1.12).
func TestTurnFatalRestores(t *testing.T) {
	s, _ := probe(t, "p5", "", nil)
	tn := fire(t, s, "go_loop")
	if tn.Err == nil || !strings.Contains(tn.Err.Error(), "exceeded max depth (24)") {
		t.Fatalf("err %v", tn.Err)
	}
	wantState(t, s, "start")
	if s.World()["hops"] != uint64(0) { // the default, a YAML whole number
		t.Errorf("hops = %v", s.World()["hops"])
	}
	end := tn.Events[len(tn.Events)-1]
	if end.Kind != KindTurnEnd || payloadMap(t, end.Payload)["outcome"] != "error" {
		t.Errorf("last event %v", end)
	}
}

// decider: human stops an emit chain at a gate; staged mode stops at
// every gate without decider: llm (§1.9).
func TestGatesHumanAndStaged(t *testing.T) {
	s, _ := probe(t, "p5", "", nil)
	tn := fire(t, s, "go_h")
	wantState(t, s, "h")
	// upstream writes the stop twice: the walk-time hop and the post-bind
	// pass both reach the pinned gate (story-runtime §1.9, p5 oneshot turn 3)
	gd := kindsOf(tn.Events, KindGateDecided)
	if len(gd) != 2 || payloadMap(t, gd[0].Payload)["bailed_to_human"] != true || payloadMap(t, gd[1].Payload)["bailed_to_human"] != true {
		t.Errorf("gate events %v", gd)
	}
	fire(t, s, "back")
	s2, _ := probe(t, "p5", "", nil)
	fire(t, s2, "go_g")
	wantState(t, s2, "a")

	m := compileProbe(t, "p5")
	reg := host.NewRegistry()
	reg.Register("host.a", stub(map[string]any{"val": "X"}, "", 0))
	st, err := Start(t.Context(), m, SessionOptions{Mode: ModeStaged, Hosts: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// a literal emit fires in the pre-bind pass, where staged mode does
	// not stop; one that needs a bind is post-bind and stops at the gate
	fire(t, st, "go_g")
	wantState(t, st, "a")
	fire(t, st, "back")
	tn = fire(t, st, "go_pb")
	wantState(t, st, "pb")
	if gd := kindsOf(tn.Events, KindGateDecided); len(gd) != 1 || payloadMap(t, gd[0].Payload)["bailed_to_human"] != true {
		t.Errorf("staged gate events %v", gd)
	}
}

// Events of a turn are in Turn.Events, in order, with the RunIntent prefix.
func TestTurnEventsPrefix(t *testing.T) {
	s, _ := probe(t, "p9", "", nil)
	tn := fire(t, s, "enter")
	if len(tn.Events) < 4 || tn.Events[0].Kind != KindTurnInput || tn.Events[1].Kind != KindTurnStart || tn.Events[2].Kind != KindIntentAccepted {
		t.Fatalf("events %v", tn.Events)
	}
	if p := payloadMap(t, tn.Events[0].Payload); p["input"] != "[intent] enter" {
		t.Errorf("turn.input %v", p)
	}
	if tn.Number != 1 || tn.State != "p#p.a.a1|p.b.b1" {
		t.Errorf("turn %d state %s", tn.Number, tn.State)
	}
}

// The view renderer is called at turn end and the error banner appended
// after an on_error redirect (§2.4).
type fakeViews struct{}

func (fakeViews) RenderView(path string, w map[string]any, extra map[string]any) (string, error) {
	return "VIEW " + path, nil
}

func TestViewAndErrorBanner(t *testing.T) {
	m := compileProbe(t, "p2")
	reg := host.NewRegistry()
	reg.Register("host.bad", stub(map[string]any{"badval": "BADDATA", "stderr": "E!", "exit_code": 3}, "boom", 0))
	reg.Register("host.ok", stub(map[string]any{"v": "fine"}, "", 0))
	s, err := Start(t.Context(), m, SessionOptions{Hosts: reg, Views: fakeViews{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, in := range []string{"err1", "err2"} {
		tn, err := s.Fire(t.Context(), Input{Intent: in})
		if err != nil {
			t.Fatal(err)
		}
		if tn.Rejection == nil && tn.Err == nil && strings.Contains(tn.View, "⚠ Action failed: boom") {
			return
		}
	}
	t.Fatal("neither err1 nor err2 rendered the view with the error banner '⚠ Action failed: boom'") // was a t.Skip: the test could not fail
}

// Imports are folded at compile time: the wrapper projects world_in, the
// child's bare intents answer through their aliases, an exit's set: lands
// in the parent (story-runtime §6).
func TestImportsRunFolded(t *testing.T) {
	s, _ := probe(t, "imports/parent", "main", nil)
	tn := fire(t, s, "begin_substory")
	wantState(t, s, "sub.idle")
	if w := s.World(); w["current_ticket"] != "KIT-42" || w["sub__ticket_id"] != "KIT-42" {
		t.Fatalf("world %v", w)
	}
	_ = tn
	// the bare child name resolves through the folded state's aliases
	tn = fire(t, s, "start_work")
	if tn.Rejection != nil || tn.Err != nil {
		t.Fatalf("start_work: %+v %v", tn.Rejection, tn.Err)
	}
	wantState(t, s, "sub.working")
	tn, _ = s.Fire(t.Context(), Input{Intent: "sub__finish", Slots: map[string]any{"url": "https://example/pr/1"}})
	if tn.Rejection != nil || tn.Err != nil {
		t.Fatalf("finish: %+v %v", tn.Rejection, tn.Err)
	}
	wantState(t, s, "pr_landed")
	if w := s.World(); w["sub__pr_url"] != "https://example/pr/1" || w["last_pr_url"] != "https://example/pr/1" {
		t.Errorf("world %v", w)
	}
	fire(t, s, "go_main")
	wantState(t, s, "main")
}

// Agent cost is folded into turn_cost_usd / session_cost_usd after each
// batch, with an event only when a value changes (story-runtime §2.6).
func TestCostFolding(t *testing.T) {
	m, err := Compile(loadStory(t, "agent"), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		a := answerOf(`{"decision":"yes"}`)
		a.Meta = map[string]any{"cost_usd": 0.25}
		return a, nil
	})
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{Agents: agents}, Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := s.World()
	if w["turn_cost_usd"] != 0.5 || w["session_cost_usd"] != 0.5 {
		t.Errorf("costs %v %v", w["turn_cost_usd"], w["session_cost_usd"])
	}
}

// The app-level decider of a one-shot run picks among a resting gate's
// intents: a confident choice fires, a doubtful one bails (§7).
func TestAppDecider(t *testing.T) {
	for _, tc := range []struct {
		answer  string
		outcome string
		state   string
	}{
		{`{"intent":"ship","confidence":0.9}`, OutcomeTerminal, "shipped"},
		{`{"intent":"ship","confidence":0.5}`, OutcomeRested, "gate"},
		{`{"intent":"launch","confidence":0.99}`, OutcomeRested, "gate"},
	} {
		var got AgentCall
		agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
			got = c
			return answerOf(tc.answer), nil
		})
		res, sink := runStory(t, "decider", "", Options{Agents: agents})
		if res.Outcome != tc.outcome || res.State != tc.state {
			t.Errorf("%s: outcome %s at %s (err %v)", tc.answer, res.Outcome, res.State, res.Err)
		}
		if got.Verb != "decide" || got.Persona != "judge" || !strings.Contains(got.Prompt, "hold") {
			t.Errorf("decider call %+v", got)
		}
		gd := sink.kinds(KindGateDecided)
		if len(gd) != 1 || payloadMap(t, gd[0].Payload)["decider"] != "llm" {
			t.Errorf("gate events %v", gd)
		}
	}
}

// An imported child's prompt includes resolve against the child's own
// search path (per-alias prompt roots, story-runtime §6).
func TestImportedPromptIncludesResolveInChild(t *testing.T) {
	var got AgentCall
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		got = c
		return answerOf(`"hi"`), nil
	})
	m, err := Compile(loadStory(t, "aliasprompt"), CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{Agents: agents}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tn := fire(t, s, "go")
	if tn.Err != nil || !strings.Contains(got.Prompt, "PARTIAL-OF-KID") {
		t.Fatalf("prompt %q err %v world %v", got.Prompt, tn.Err, s.World())
	}
}

// A terminal state still accepts its own intents; leaving it reopens the
// session (story-runtime §1.11).
func TestTerminalStateTakesIntents(t *testing.T) {
	s, _ := probe(t, "p6", "fin", nil)
	fire(t, s, "after")
	wantState(t, s, "b")
	if s.Terminal() {
		t.Error("the session is still ended after leaving the terminal state")
	}
}

// Timeout, on_error and on_complete targets descend initial: like any
// target (upstream lands on the compound itself, ⚠ §2.4/§4/§5).
// Timeout, on_error and on_complete targets land flat and do not descend
// initial: (story-runtime §2.4, §4, §5; runtime-probes/traces/p12a.jsonl):
// a compound target rests on the compound, runs only its own on_enter,
// renders its own view, and writes one state_exited/state_entered pair.
func TestSpecialTargetsLandFlat(t *testing.T) {
	s, _ := probe(t, "p12", "", map[string]host.Handler{
		"host.bad":  stub(nil, "boom", 0),
		"host.slow": stub(map[string]any{}, "", time.Second),
	})
	fire(t, s, "t")
	tn := advance(t, s, 2*time.Minute)
	wantState(t, s, "comp")
	wantMoves(t, tn.Events, "tw", "comp")
	if tr := kindsOf(tn.Events, KindTransition); len(tr) != 1 || payloadMap(t, tr[0].Payload)["to"] != "comp" {
		t.Errorf("timeout transitions %v", tr)
	}
	fire(t, s, "back")
	tn = fire(t, s, "e")
	wantState(t, s, "comp")
	tr := kindsOf(tn.Events, KindTransition)
	if len(tr) != 2 || payloadMap(t, tr[1].Payload)["intent"] != "on_error" || payloadMap(t, tr[1].Payload)["to"] != "comp" {
		t.Errorf("transitions %v", tr)
	}
	fire(t, s, "back")
	fire(t, s, "j")
	tn = advance(t, s, 2*time.Second)
	wantState(t, s, "comp")
	wantMoves(t, tn.Events, "jw", "comp")
	if got := s.World()["log"]; got != "E:comp;E:comp;E:comp;" {
		t.Errorf("log %q", got)
	}
}

// wantMoves checks a turn's state_exited/state_entered events are exactly
// one exit of from and one entry of to.
func wantMoves(t *testing.T, evs []Event, from, to string) {
	t.Helper()
	ex, en := kindsOf(evs, KindStateExited), kindsOf(evs, KindStateEntered)
	if len(ex) != 1 || len(en) != 1 || payloadMap(t, ex[0].Payload)["state"] != from || payloadMap(t, en[0].Payload)["state"] != to {
		t.Errorf("moves: exited %v entered %v, want %s -> %s", ex, en, from, to)
	}
}

// Timeouts and job delays share the virtual clock and fire in time order:
// a timeout that falls due first moves the session, so the later job's
// on_complete is stale (flow-format §5.4).
func TestTimeoutBeforeJobOnOneClock(t *testing.T) {
	m := compileProbe(t, "p4")
	m.States["bg"].Timeout = &Timeout{After: &text{src: "8m"}, Target: &text{src: "start"}}
	reg := host.NewRegistry()
	reg.Register("host.slow", stub(map[string]any{"v": "OK"}, "", 9*time.Minute))
	s, err := Start(t.Context(), m, SessionOptions{Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fire(t, s, "bgok")
	tn := advance(t, s, 9*time.Minute)
	wantState(t, s, "start")
	if s.World()["result"] != "" || s.Jobs()[0].Status != JobDone {
		t.Errorf("world %v jobs %+v", s.World(), s.Jobs())
	}
	var order []string
	for _, e := range tn.Events {
		if e.Kind == KindTurnStart {
			order = append(order, payloadMap(t, e.Payload)["kind"].(string))
		}
	}
	if strings.Join(order, ",") != "timeout,background_completion" {
		t.Errorf("synthetic turns %v", order)
	}
}

// A failure without on_error lets the batch go on in a session; the depth
// cap refuses the sixth redirect with harness.error (§2.3, §2.4).
func TestHostFailureSessionSemantics(t *testing.T) {
	s, _ := probe(t, "p2", "", map[string]host.Handler{
		"host.bad": stub(map[string]any{"badval": "BADDATA"}, "boom", 0),
		"host.a":   stub(map[string]any{"val": "A1"}, "", 0),
	})
	tn := fire(t, s, "err2")
	if tn.Err != nil || s.World()["last_error"] != "boom" || s.World()["r1"] != "A1" {
		t.Fatalf("err2: %v %v", tn.Err, s.World())
	}
	fire(t, s, "reset")
	tn = fire(t, s, "loop")
	he := kindsOf(tn.Events, KindHarnessError)
	if len(he) != 1 || payloadMap(t, he[0].Payload)["reason"] != "on_error.depth_cap_exceeded" {
		t.Errorf("harness.error %v", he)
	}
	if n := len(onErrorTransitionsOf(t, tn.Events)); n != 5 {
		t.Errorf("%d on_error transitions, want 5", n)
	}
}

func onErrorTransitionsOf(t *testing.T, evs []Event) []map[string]any {
	var out []map[string]any
	for _, e := range kindsOf(evs, KindTransition) {
		if p := payloadMap(t, e.Payload); p["intent"] == "on_error" {
			out = append(out, p)
		}
	}
	return out
}

// A background job queued by a compound ancestor's on_enter has the
// resting leaf as its origin, so its on_complete runs there.
func TestBackgroundJobFromAncestor(t *testing.T) {
	m := compileProbe(t, "p4")
	bg := m.States["bg"]
	// move bg's on_enter into a compound wrapper whose only child rests
	wrap := &State{Path: "wrap", Name: "wrap", On: map[string][]*Transition{}, OnEnter: bg.OnEnter, Initial: &text{src: "leaf"}}
	leaf := &State{Path: "wrap.leaf", Name: "leaf", Parent: wrap, On: map[string][]*Transition{}}
	wrap.Children = []*State{leaf}
	for _, e := range wrap.OnEnter {
		e.owner = wrap
	}
	m.States["wrap"], m.States["wrap.leaf"] = wrap, leaf
	m.States["start"].On["bgok"] = []*Transition{{Target: &text{src: "wrap"}}}
	reg := host.NewRegistry()
	reg.Register("host.slow", stub(map[string]any{"v": "OK"}, "", time.Second))
	s, err := Start(t.Context(), m, SessionOptions{Hosts: reg, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fire(t, s, "bgok")
	wantState(t, s, "wrap.leaf")
	if j := s.Jobs(); j[0].State != "wrap.leaf" {
		t.Fatalf("origin %q", j[0].State)
	}
	advance(t, s, 2*time.Second)
	wantState(t, s, "done")
	if s.World()["result"] != "OK" {
		t.Errorf("world %v", s.World())
	}
}

// A walk's on_enter effect events come before the exits and entries,
// exits innermost first, entries outermost first (story-runtime §1.8).
func TestWalkEventOrder(t *testing.T) {
	s, _ := probe(t, "p1", "", nil)
	fire(t, s, "go")
	tn := fire(t, s, "back")
	var kinds []string
	for _, e := range tn.Events {
		switch e.Kind {
		case KindWorldUpdate, KindStateEntered, KindStateExited, KindTransition:
			k := e.Kind
			if e.Kind == KindStateEntered || e.Kind == KindStateExited {
				k += ":" + e.StatePath
			}
			kinds = append(kinds, k)
		}
	}
	got := strings.Join(kinds, " ")
	want := "machine.transition world.update world.update world.update machine.state_exited:other machine.state_entered:outer machine.state_entered:outer.mid machine.state_entered:outer.mid.leaf"
	if !strings.HasSuffix(got, want) {
		t.Errorf("events:\n %s\nwant suffix:\n %s", got, want)
	}
}

// In a session every queued call writes harness.called at walk time and
// harness.dispatched when it goes out: a call left behind by an on_error
// redirect has the first and not the second (story-runtime §2.4).
func TestCalledAndDispatched(t *testing.T) {
	s, _ := probe(t, "p2", "", map[string]host.Handler{
		"host.bad": stub(map[string]any{"badval": "BADDATA"}, "boom", 0),
		"host.a":   stub(map[string]any{"val": "A1"}, "", 0),
	})
	tn := fire(t, s, "err1")
	called, dispatched := kindsOf(tn.Events, KindHarnessCalled), kindsOf(tn.Events, KindHarnessDispatched)
	if len(called) < 2 || len(dispatched) != len(called)-1 {
		t.Errorf("%d harness.called, %d harness.dispatched", len(called), len(dispatched))
	}
}

// An on_error target that names no state drops the rest of the batch but
// the step's emits still fire (story-runtime §2.4 corrections).
func TestOnErrorNotFoundKeepsEmits(t *testing.T) {
	m := compileProbe(t, "p5")
	pb := m.States["pb"]
	pb.OnEnter[0].OnError = "nowhere"
	pb.OnEnter[1].Emit = &valueTmpl{lit: "fwd"}
	s := startHosts(t, m, map[string]host.Handler{"host.a": stub(nil, "boom", 0)})
	tn := fire(t, s, "go_pb")
	wantState(t, s, "a")
	// as upstream, the dispatch's error writes no event (story-runtime
	// §2.4: the only trace is the harness.returned)
	if he := kindsOf(tn.Events, KindHarnessError); len(he) != 0 {
		t.Errorf("harness.error %v", he)
	}
	if s.World()["last_error"] != "boom" {
		t.Errorf("last_error %v", s.World()["last_error"])
	}
}
