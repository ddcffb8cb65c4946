package agent_test

// The conformance suite: the same calls go through Registry.Dispatch on
// every transport — inprocess (agenttest.EchoAgent), subprocess (the real
// echoagent program, built by the test), mcp_http (a real MCP server built
// with the official SDK, on loopback) and cassette — and must give
// byte-identical submissions, identical event sequences and identical error
// kinds for the same faults.
//
// Two differences are part of the contract, not gaps, and are spelled out
// in the table below:
//   - a crash of an MCP *service* (it drops the connection) is
//     transport_error: plugin_crash means a subprocess exited (seed §7);
//   - a cassette episode cannot carry sub-events, so the sub-event faults do
//     not apply to it, and its "late" episode is a delay that honours the
//     context (the same as "hang").
// A malformed-JSON answer cannot travel inside a JSON-RPC or MCP frame; the
// out-of-process plugins send the same broken text as a JSON string (see
// echo.Malformed). Dispatch rejects both forms as schema_invalid.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

const alias = agenttest.ReferenceAlias

// conformanceTransport registers alias on a fresh fixture, misbehaving as
// the fault says.
type conformanceTransport struct {
	name  string
	setup func(t *testing.T, f agenttest.Fault) *agenttest.Fixture
	kinds map[agenttest.Fault]agent.Kind // contract-level differences
	skip  map[agenttest.Fault]string     // faults the transport cannot express
}

func conformanceTransports(t *testing.T) []conformanceTransport {
	echoBin := agent.BuildTestPlugin(t, "echoagent")
	return []conformanceTransport{
		{
			name: "inprocess",
			setup: func(t *testing.T, f agenttest.Fault) *agenttest.Fixture {
				fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{alias: {Alias: alias, Plugin: story.PluginInProcess}}, agent.RegistryOptions{})
				if err := fx.Registry.RegisterInProcess(alias, agenttest.EchoAgent(alias, f)); err != nil {
					t.Fatal(err)
				}
				return fx
			},
		},
		{
			name: "subprocess",
			setup: func(t *testing.T, f agenttest.Fault) *agenttest.Fixture {
				return agenttest.NewFixture(t, map[string]*story.AgentPlugin{alias: {
					Alias: alias, Plugin: story.PluginSubprocess, Command: echoBin,
					Args: []string{"-fault", string(f), "-alias", alias},
				}}, agent.RegistryOptions{})
			},
		},
		{
			name: "mcp_http",
			setup: func(t *testing.T, f agenttest.Fault) *agenttest.Fixture {
				srv := mcpecho.New(mcpecho.Options{Structured: true, Fault: string(f), Alias: alias})
				ts := httptest.NewServer(srv)
				t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
				fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{alias: {
					Alias: alias, Plugin: story.PluginMCPHTTP, Endpoint: ts.URL + "/mcp",
				}}, agent.RegistryOptions{})
				t.Cleanup(srv.Stop) // first: release hanging tool calls, then close the registry
				return fx
			},
			kinds: map[agenttest.Fault]agent.Kind{agenttest.FaultCrash: agent.KindTransportError},
		},
		{
			name: "cassette",
			setup: func(t *testing.T, f agenttest.Fault) *agenttest.Fixture {
				c, err := agent.ParseCassette("conformance.yaml", []byte(cassetteFor(f)))
				if err != nil {
					t.Fatal(err)
				}
				return agenttest.NewFixture(t, map[string]*story.AgentPlugin{alias: {Alias: alias, Plugin: story.PluginInProcess}}, agent.RegistryOptions{Cassette: c})
			},
			skip: map[agenttest.Fault]string{
				agenttest.FaultSubEvents: "a cassette episode carries no sub-events",
				agenttest.FaultNamespace: "a cassette episode carries no sub-events",
				agenttest.FaultCallID:    "a cassette episode carries no sub-events",
			},
		},
	}
}

// cassetteFor is a one-episode cassette acting out fault f.
func cassetteFor(f agenttest.Fault) string {
	agentBlock := `response: '` + agenttest.ReferenceSubmission + `'`
	delay := ""
	switch f {
	case agenttest.FaultSchemaInvalid:
		agentBlock = `response: '{"echo_verb":42}'`
	case agenttest.FaultMalformed:
		agentBlock = `response: '{"echo_verb": "decide"'`
	case agenttest.FaultCrash:
		agentBlock = `error: "echo agent crashed (fault mode crash)"`
	case agenttest.FaultHang, agenttest.FaultLate:
		delay = "\n    delay: 1h"
	}
	return fmt.Sprintf(`kind: host_cassette
app_id: conformance
episodes:
  - id: echo_%s
    replay: any%s
    match: {handler: %s, verb: decide}
    agent:
      verb: decide
      %s
`, orNone(string(f)), delay, alias, agentBlock)
}

func orNone(s string) string {
	if s == "" {
		return "ref"
	}
	return s
}

// conformanceFaults is every row: the reference call and each fault.
var conformanceFaults = []agenttest.Fault{
	agenttest.FaultNone, agenttest.FaultSubEvents, agenttest.FaultSchemaInvalid, agenttest.FaultMalformed,
	agenttest.FaultCrash, agenttest.FaultHang, agenttest.FaultLate, agenttest.FaultNamespace, agenttest.FaultCallID,
}

// outcome is what one transport produced for one row.
type outcome struct {
	submission string
	kind       agent.Kind
	events     []string
}

// normalizeForConformance is agenttest.Normalize with the error text of
// agent.call.error reduced to its kind (details name the transport).
func normalizeForConformance(evs []agent.Event) []string {
	out := agenttest.Normalize(evs)
	for i, e := range evs {
		if e.Kind != agent.EventCallError {
			continue
		}
		p := agenttest.PayloadMap(e)
		msg, _ := p["error"].(string)
		kind, _, _ := strings.Cut(strings.TrimPrefix(msg, "agent: "), ":")
		out[i] = fmt.Sprintf(`{"kind":"agent.call.error","payload":{"agent":%q,"error_kind":%q,"verb":%q}}`, p["agent"], kind, p["verb"])
	}
	return out
}

func runRow(t *testing.T, tr conformanceTransport, f agenttest.Fault) outcome {
	t.Helper()
	fx := tr.setup(t, f)
	call := agenttest.ReferenceCall()
	call.Timeout = 30 * time.Second
	if f == agenttest.FaultHang || f == agenttest.FaultLate {
		call.Timeout = 500 * time.Millisecond
	}
	res, err := fx.Registry.Dispatch(context.Background(), call)
	var o outcome
	if err != nil {
		var ae *agent.AskError
		if !errors.As(err, &ae) {
			t.Fatalf("Dispatch returned a non-AskError: %v", err)
		}
		o.kind = ae.Kind
	} else {
		o.submission = string(res.Submission)
	}
	o.events = normalizeForConformance(fx.Sink.Events())
	return o
}

func TestConformance(t *testing.T) {
	transports := conformanceTransports(t)
	wantKinds := agenttest.Faults()
	for _, f := range conformanceFaults {
		t.Run(orNone(string(f)), func(t *testing.T) {
			var base *outcome
			for _, tr := range transports {
				t.Run(tr.name, func(t *testing.T) {
					agent.CheckNoChildren(t)
					if why, ok := tr.skip[f]; ok {
						t.Skip(why)
					}
					o := runRow(t, tr, f)
					want, ok := tr.kinds[f]
					if !ok {
						want = wantKinds[f]
					}
					if o.kind != want {
						t.Fatalf("error kind %q, want %q; events:\n%s", o.kind, want, strings.Join(o.events, "\n"))
					}
					if f == agenttest.FaultNone || f == agenttest.FaultSubEvents {
						if o.submission != agenttest.ReferenceSubmission {
							t.Fatalf("submission bytes:\n got %s\nwant %s", o.submission, agenttest.ReferenceSubmission)
						}
					}
					if base == nil {
						base = &o
						return
					}
					// Same event sequence as the first transport, up to the
					// contract-level kind differences above.
					wantEvents := base.events
					if k, ok := tr.kinds[f]; ok {
						wantEvents = replaceKind(base.events, wantKinds[f], k)
					}
					if !reflect.DeepEqual(o.events, wantEvents) {
						t.Fatalf("event sequence differs from %s:\n got %s\nwant %s",
							transports[0].name, strings.Join(o.events, "\n    "), strings.Join(wantEvents, "\n    "))
					}
				})
			}
		})
	}
}

func replaceKind(evs []string, from, to agent.Kind) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = strings.ReplaceAll(e, `"error_kind":"`+string(from)+`"`, `"error_kind":"`+string(to)+`"`)
	}
	return out
}

// TestConformanceReferenceEvents pins the reference call's event sequence
// itself (not only its equality across transports).
func TestConformanceReferenceEvents(t *testing.T) {
	for _, tr := range conformanceTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			agent.CheckNoChildren(t)
			o := runRow(t, tr, agenttest.FaultSubEvents)
			if tr.name == "cassette" {
				o = runRow(t, tr, agenttest.FaultNone)
			}
			var kinds []string
			for _, e := range o.events {
				var m struct{ Kind string }
				json.Unmarshal([]byte(e), &m)
				kinds = append(kinds, m.Kind)
			}
			want := []string{agent.EventCallStart, alias + ".tool", alias + ".note", agent.EventCallComplete}
			if tr.name == "cassette" {
				want = []string{agent.EventCallStart, agent.EventCallComplete}
			}
			if !reflect.DeepEqual(kinds, want) {
				t.Fatalf("events %v, want %v", kinds, want)
			}
			last := o.events[len(o.events)-1]
			if !strings.Contains(last, `"submission":{"echo_prompt_head":"which is the best option for this context?","echo_verb":"decide"}`) {
				t.Fatalf("complete payload: %s", last)
			}
		})
	}
}
