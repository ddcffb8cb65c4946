package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

type recSink struct{ evs []Event }

func (s *recSink) Emit(ev Event) error { s.evs = append(s.evs, ev); return nil }

func (s *recSink) payload(kind string) map[string]any {
	for _, ev := range s.evs {
		if ev.Kind == kind {
			m, _ := jsonvalue.RoundTrip(ev.Payload).(map[string]any)
			return m
		}
	}
	return nil
}

// lateTransport ignores its deadline: it answers only once the context has
// ended (a plugin that finishes its work regardless).
type lateTransport struct{}

func (lateTransport) Ask(ctx context.Context, _ *AskRequest) (*AskResponse, error) {
	<-ctx.Done()
	return &AskResponse{Submission: json.RawMessage(`{"answer":"too late"}`), Meta: map[string]any{"cost_usd": 0.002}}, nil
}
func (lateTransport) Close() error { return nil }

func TestLateAnswerIsDiscardedAndRecorded(t *testing.T) {
	sink := &recSink{}
	reg, err := NewRegistryFromPlugins(map[string]*story.AgentPlugin{}, RegistryOptions{AppID: "late", StoryDir: t.TempDir(), Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	// The late answer comes once the deadline has passed; lateGrace (2s) is
	// the registry's wait for it, which a loaded machine could outlast.
	reg.lateGraceOverride = time.Minute // a hang guard: lateTransport answers at once
	if err := reg.Register("agent.late", lateTransport{}); err != nil {
		t.Fatal(err)
	}
	_, err = reg.Dispatch(context.Background(), Call{Alias: "agent.late", Verb: "ask", Prompt: "p", Timeout: 50 * time.Millisecond})
	if KindOf(err) != KindDeadlineExceeded || !strings.Contains(err.Error(), "timeout of 50ms") {
		t.Fatalf("err = %v", err)
	}
	p := sink.payload(EventCallError)
	d, _ := p["discarded"].(map[string]any)
	sub, _ := d["submission"].(map[string]any)
	if p["timeout_ms"] != float64(50) || sub["answer"] != "too late" {
		t.Fatalf("error payload %v", p)
	}
	if m, _ := p["meta"].(map[string]any); m["cost_usd"] != 0.002 {
		t.Fatalf("the late answer's cost must count: %v", p)
	}
}

func TestSoftDeadlineNeverPastTheContext(t *testing.T) {
	var got time.Time
	sink := &recSink{}
	reg, err := NewRegistryFromPlugins(map[string]*story.AgentPlugin{}, RegistryOptions{AppID: "d", StoryDir: t.TempDir(), Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	_ = reg.RegisterInProcess("agent.x", AgentFunc(func(_ context.Context, req *AskRequest) (*AskResponse, error) {
		got = req.Deadline
		return &AskResponse{Submission: json.RawMessage(`"ok"`)}, nil
	}))
	end := time.Now().Add(time.Hour)
	ctx, cancel := context.WithDeadline(context.Background(), end)
	defer cancel()
	if _, err := reg.Dispatch(ctx, Call{Alias: "agent.x", Verb: "ask", Prompt: "p", Timeout: 2 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	if !got.Equal(end) || got.Location() != time.UTC {
		t.Fatalf("deadline %v, want the context's %v (UTC)", got, end)
	}
	if sink.payload(EventCallStart)["deadline"] != got.Format(time.RFC3339Nano) {
		t.Fatalf("start payload %v", sink.payload(EventCallStart))
	}
	// Without a context deadline: start + the call's timeout.
	before := time.Now()
	if _, err := reg.Dispatch(context.Background(), Call{Alias: "agent.x", Verb: "ask", Prompt: "p", Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if got.Before(before.Add(time.Minute)) || got.After(time.Now().Add(time.Minute)) {
		t.Fatalf("deadline %v is not start + 1m", got)
	}
}

// The persona's system prompt reaches the claude CLI (STAND-IN: the
// fakeclaude program, which records its argv) and the trace, identically.
func TestPersonaSystemPromptReachesCLIAndTrace(t *testing.T) {
	bin := BuildTestPlugin(t, "fakeclaude")
	for _, inherit := range []bool{false, true} {
		record := filepath.Join(t.TempDir(), "record.json")
		sink := &recSink{}
		inh := inherit
		reg, err := NewRegistryFromPlugins(map[string]*story.AgentPlugin{
			"agent.claude": {Alias: "agent.claude", Plugin: story.PluginClaudeCLI, ClaudeBin: bin, Env: map[string]string{"FAKE_CLAUDE_RECORD": record, "FAKE_CLAUDE_MODE": "plain", "FAKE_CLAUDE_ANSWER": `"fine"`}},
		}, RegistryOptions{AppID: "p", StoryDir: t.TempDir(), Sink: sink,
			Personas: map[string]*story.Persona{"judge": {Name: "judge", SystemPromptResolved: "You judge strictly.\nNo prose.", InheritClaudeDefault: &inh}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Dispatch(context.Background(), Call{Verb: "ask", Prompt: "hi", Persona: "judge"}); err != nil {
			t.Fatal(err)
		}
		reg.Close()
		var rec struct{ Args []string }
		b, _ := os.ReadFile(record)
		_ = json.Unmarshal(b, &rec)
		flag := "--system-prompt"
		if inherit {
			flag = "--append-system-prompt"
		}
		if !slices.Contains(rec.Args, flag+"=You judge strictly.\nNo prose.") {
			t.Fatalf("inherit=%v: argv %q", inherit, rec.Args)
		}
		if sp := sink.payload(EventCallStart)["system_prompt"]; sp != "You judge strictly.\nNo prose." {
			t.Fatalf("trace system_prompt %v", sp)
		}
	}
}

// An answer line over the frame cap from a real subprocess plugin fails
// the call with a message that says what the cap is and what to do. The
// cap is lowered to 1 MiB (childproc's TestFrameCapIsTheDocumented holds
// the product's 64 MiB).
func TestFrameCapMessage(t *testing.T) {
	t.Parallel() // its own registry and child; the CheckNoChildren tests are serial, so done before it starts
	bin := BuildTestPlugin(t, "echoagent")
	reg, err := NewRegistryFromPlugins(map[string]*story.AgentPlugin{
		"agent.big": {Alias: "agent.big", Plugin: story.PluginSubprocess, Command: bin, Args: []string{"-alias", "agent.big"}},
	}, RegistryOptions{AppID: "f", StoryDir: t.TempDir(), Builders: map[string]Builder{
		story.PluginSubprocess: func(p *story.AgentPlugin, bc BuildContext) (Transport, error) {
			bc.frameCap = 1 << 20
			return newSubprocessTransport(p, bc)
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	_, err = reg.Dispatch(context.Background(), Call{Alias: "agent.big", Verb: "ask", Prompt: "p", With: map[string]any{"fault": "big:1100000"}})
	if KindOf(err) != KindPluginCrash || !strings.Contains(err.Error(), "wrote an answer line longer than kitsoki's 1 MiB frame cap") {
		t.Fatalf("err = %v", err)
	}
}
