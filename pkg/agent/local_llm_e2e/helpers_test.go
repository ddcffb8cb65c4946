package localllme2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/internal/testing/llamastandin/standintest"
	"kitsoki/pkg/agent"
)

// artifacts is the loopback artifact server (standintest.ServeArtifacts):
// the llama-server STAND-IN packed like a llama.cpp release and a model
// file, pinned by an overlay file for KITSOKI_PINS.
type artifacts = standintest.Artifacts

// standin builds the stand-in once for this test binary.
var standin standintest.Cache

func newArtifacts(t *testing.T) *artifacts {
	t.Helper()
	return standintest.ServeArtifacts(t, standin.Binary(t))
}

// claudeStub is an in-process stand-in for the claude CLI behind agent.claude.
type claudeStub struct {
	mu     sync.Mutex
	reqs   []agent.AskRequest
	answer string
}

func (c *claudeStub) Ask(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
	c.mu.Lock()
	c.reqs = append(c.reqs, *req)
	c.mu.Unlock()
	return &agent.AskResponse{Submission: []byte(c.answer), Meta: map[string]any{"model": "claude-stub"}}, nil
}

func (c *claudeStub) calls() []agent.AskRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]agent.AskRequest(nil), c.reqs...)
}

// checkNoChildren fails the test when a child process of the test is
// still running once the test and its cleanups are done (Linux /proc).
func checkNoChildren(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return
	}
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for {
			kids := children()
			if len(kids) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("child processes left running after the test: %v", kids)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

func children() []string {
	ents, _ := os.ReadDir("/proc")
	me := os.Getpid()
	var out []string
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 { // a zombie counts: nobody reaped it
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == me {
			out = append(out, e.Name())
		}
	}
	return out
}
