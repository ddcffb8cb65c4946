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
	m := &Manifest{ID: "ext", Path: "manifest.yaml", Dir: t.TempDir(), Entry: ManifestEntry{Command: testHookBinary(t), Args: []string{"twice"}}}
	h := newProcHandler(m, proc.EnvInherit, nil, nil)
	t.Cleanup(func() { h.Close() })
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
	m := &Manifest{ID: "gitp", Path: "manifest.yaml", Dir: t.TempDir(), Hosts: []string{"host.git"}, Entry: ManifestEntry{Command: testHostProviderBinary(t)}}
	p := newHostProc(m, proc.EnvInherit, nil, nil)
	t.Cleanup(func() { p.Close() })
	call := func(mode string) (host.Result, error) {
		return p.Call(context.Background(), &host.Call{Handler: "host.git.push", Op: "push", Args: map[string]any{"mode": mode}})
	}
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
