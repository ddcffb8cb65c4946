//go:build unix

package plugin

import (
	"context"
	"strings"
	"testing"

	"kitsoki/internal/proc"
	"kitsoki/internal/testing/proctest"
	"kitsoki/pkg/host"
)

// A hook process that answers a call twice: the first answer is the
// call's; the second is never read as the next call's reply, which fails
// unsent naming the plugin and quoting the line; the call after it is
// served again.
func TestHookSecondAnswerIsNeverTheNextCalls(t *testing.T) {
	proctest.CheckNoChildren(t)
	h := strayHook(t, "twice")
	res, err := h.Hook(context.Background(), pointPreDispatch, Payload{"prompt": "x"})
	if err != nil || res.Payload["prompt"] != "first answer" {
		t.Fatalf("first call: %+v %v", res, err)
	}
	proctest.Eventually(t, "the second answer to be taken aside", func() bool {
		h.stray.mu.Lock()
		defer h.stray.mu.Unlock()
		return h.stray.n == 1
	})
	_, err = h.Hook(context.Background(), pointPreDispatch, Payload{"prompt": "y"})
	if err == nil || !strings.Contains(err.Error(), "external plugin ext") || !strings.Contains(err.Error(), "second answer") ||
		!strings.Contains(err.Error(), "while no call was waiting") {
		t.Fatalf("second call: %v", err)
	}
	if res, err := h.Hook(context.Background(), pointPreDispatch, Payload{"prompt": "z"}); err != nil || res.Payload["prompt"] != "first answer" {
		t.Fatalf("third call: %+v %v", res, err)
	}
}

// The same for a host provider: the second answer of a call never becomes
// the next call's data.
func TestHostProviderSecondAnswerIsNeverTheNextCalls(t *testing.T) {
	proctest.CheckNoChildren(t)
	p, call := strayProvider(t)
	res, err := call("twice")
	if err != nil || res.Data["answer"] != "first" {
		t.Fatalf("first call: %+v %v", res, err)
	}
	proctest.Eventually(t, "the second answer to be taken aside", func() bool {
		p.stray.mu.Lock()
		defer p.stray.mu.Unlock()
		return p.stray.n == 1
	})
	if _, err := call(""); err == nil || !strings.Contains(err.Error(), "host provider gitp") || !strings.Contains(err.Error(), `\"second\"`) {
		t.Fatalf("second call: %v", err)
	}
	if res, err := call(""); err != nil || res.Data["handler"] != "host.git.push" {
		t.Fatalf("third call: %+v %v", res, err)
	}
}

// A request carries an id ("id": 1, 2, …) and a provider may echo it: a
// late second answer to the first call, written after the provider read
// the second call's request (so no barrier can see it before that request
// is sent), echoes the first call's id and is never the second call's
// answer; it is taken aside as stray output, so the third call fails
// unsent quoting it, and the one after is served.
func TestHostProviderLateAnswerEchoingAnEarlierIDIsNotTheAnswer(t *testing.T) {
	proctest.CheckNoChildren(t)
	_, call := strayProvider(t)
	if res, err := call("late-first"); err != nil || res.Data["answer"] != "first" {
		t.Fatalf("first call: %+v %v", res, err)
	}
	if res, err := call("late-second"); err != nil || res.Data["answer"] != "fresh" {
		t.Fatalf("second call: %+v %v; want its own answer, not the first call's late one", res, err)
	}
	if _, err := call(""); err == nil || !strings.Contains(err.Error(), "host provider gitp") || !strings.Contains(err.Error(), `\"stale\"`) ||
		!strings.Contains(err.Error(), "was not sent") {
		t.Fatalf("third call: %v; want it refused unsent, quoting the late answer", err)
	}
	if res, err := call(""); err != nil || res.Data["handler"] != "host.git.push" {
		t.Fatalf("fourth call: %+v %v", res, err)
	}
}

// An answer echoing an id no request had means the provider is out of step
// with its requests: the call fails naming both ids and the process is
// replaced (a new pid serves the next call).
func TestHostProviderAnswerWithAnUnknownIDFails(t *testing.T) {
	proctest.CheckNoChildren(t)
	_, call := strayProvider(t)
	first, err := call("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := call("wrong-id"); err == nil || !strings.Contains(err.Error(), "host provider gitp") ||
		!strings.Contains(err.Error(), "with id 1099511627776, but the request it was sent has id 2") {
		t.Fatalf("wrong-id call: %v", err)
	}
	res, err := call("")
	if err != nil || res.Data["pid"] == first.Data["pid"] {
		t.Fatalf("after the wrong id: %+v %v; want a new process", res, err)
	}
}

// The same for a hook process: the late answer to call 1 that echoes its
// id never becomes call 2's result.
func TestHookLateAnswerEchoingAnEarlierIDIsNotTheAnswer(t *testing.T) {
	proctest.CheckNoChildren(t)
	h := strayHook(t, "late")
	prompt := func(p string) (string, error) {
		res, err := h.Hook(context.Background(), pointPreDispatch, Payload{"prompt": p})
		s, _ := res.Payload["prompt"].(string)
		return s, err
	}
	if got, err := prompt("a"); err != nil || got != "first" {
		t.Fatalf("first call: %q %v", got, err)
	}
	if got, err := prompt("b"); err != nil || got != "call 2" {
		t.Fatalf("second call: %q %v; want its own answer, not the first call's late one", got, err)
	}
	if _, err := prompt("c"); err == nil || !strings.Contains(err.Error(), "external plugin ext") || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("third call: %v; want it refused unsent, quoting the late answer", err)
	}
	if got, err := prompt("d"); err != nil || got != "call 3" {
		t.Fatalf("fourth call: %q %v", got, err)
	}
}

// strayHook starts the test hook program (testhook ARGS) as the plugin
// "ext", closed when the test ends.
func strayHook(t *testing.T, args ...string) *procHandler {
	t.Helper()
	m := &Manifest{ID: "ext", Path: "manifest.yaml", Dir: t.TempDir(), Entry: ManifestEntry{Command: testHookBinary(t), Args: args}}
	h := newProcHandler(m, proc.EnvInherit, nil, nil)
	t.Cleanup(func() { h.Close() })
	return h
}

// strayProvider starts the test host provider as the plugin "gitp" serving
// host.git, closed when the test ends; call sends it host.git.push with
// args {mode: MODE} (the provider's misbehaviour for that call).
func strayProvider(t *testing.T) (p *hostProc, call func(mode string) (host.Result, error)) {
	t.Helper()
	m := &Manifest{ID: "gitp", Path: "manifest.yaml", Dir: t.TempDir(), Hosts: []string{"host.git"}, Entry: ManifestEntry{Command: testHostProviderBinary(t)}}
	p = newHostProc(m, proc.EnvInherit, nil, nil)
	t.Cleanup(func() { p.Close() })
	return p, func(mode string) (host.Result, error) {
		return p.Call(context.Background(), &host.Call{Handler: "host.git.push", Op: "push", Args: map[string]any{"mode": mode}})
	}
}
