package host

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"go.starlark.net/starlark"

	"kitsoki/internal/testing/storytest"
)

// countingCompile returns a compile function that counts its calls and
// makes a new (empty) program each time, or fails with err.
func countingCompile(n *int, err error) func() (*starlark.Program, error) {
	return func() (*starlark.Program, error) {
		*n++
		if err != nil {
			return nil, err
		}
		return &starlark.Program{}, nil
	}
}

// A script is compiled once per name and source; another name or another
// source is another program; a compile error is kept like a program.
func TestScriptCacheKeys(t *testing.T) {
	var c ScriptCache
	n := 0
	p1, _ := c.program("a.star", []byte("x = 1"), countingCompile(&n, nil))
	p2, _ := c.program("a.star", []byte("x = 1"), countingCompile(&n, nil))
	if n != 1 || p1 != p2 {
		t.Errorf("same script: %d compiles, same program %v", n, p1 == p2)
	}
	if p3, _ := c.program("b.star", []byte("x = 1"), countingCompile(&n, nil)); n != 2 || p3 == p1 {
		t.Errorf("another name: %d compiles", n)
	}
	if p4, _ := c.program("a.star", []byte("x = 2"), countingCompile(&n, nil)); n != 3 || p4 == p1 {
		t.Errorf("another source: %d compiles", n)
	}
	boom := errors.New("a.star:1:1: got illegal token")
	for range 2 {
		if _, err := c.program("bad.star", []byte("$"), countingCompile(&n, boom)); err != boom {
			t.Errorf("error: %v", err)
		}
	}
	if n != 4 {
		t.Errorf("the error was compiled %d times, want once", n-3)
	}
	// A nil cache compiles every call.
	var none *ScriptCache
	none.program("a.star", nil, countingCompile(&n, nil))
	none.program("a.star", nil, countingCompile(&n, nil))
	if n != 6 {
		t.Errorf("nil cache: %d compiles", n-4)
	}
}

// Past its bounds the cache keeps nothing more: a new script is compiled
// at each call, the kept ones are still shared.
func TestScriptCacheBounds(t *testing.T) {
	var c ScriptCache
	n := 0
	for i := range maxCachedScripts {
		c.program(fmt.Sprintf("s%d.star", i), nil, countingCompile(&n, nil))
	}
	c.program("more.star", nil, countingCompile(&n, nil))
	c.program("more.star", nil, countingCompile(&n, nil))
	c.program("s0.star", nil, countingCompile(&n, nil))
	if n != maxCachedScripts+2 || len(c.progs) != maxCachedScripts {
		t.Errorf("count bound: %d compiles, %d kept", n, len(c.progs))
	}

	var big ScriptCache
	n = 0
	src := make([]byte, maxCachedSource/2+1)
	big.program("one.star", src, countingCompile(&n, nil))
	big.program("two.star", src, countingCompile(&n, nil))
	big.program("two.star", src, countingCompile(&n, nil))
	big.program("one.star", src, countingCompile(&n, nil))
	if n != 3 || big.kept != len(src) {
		t.Errorf("byte bound: %d compiles, %d bytes kept", n, big.kept)
	}
}

// Handlers sharing a cache run the same scripts (and their load()ed
// modules) from many goroutines: every call gets its own globals (a
// module's top-level state never leaks between calls), and an edited
// script runs as edited.
func TestScriptCacheSharedConcurrent(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"lib/count.star":         "seen = []\nseen.append(1)\nn = len(seen)\n",
		"scripts/main.star":      "load(\"//lib/count.star\", \"n\")\ndef main(ctx):\n    return {\"out\": \"v1 %d %s\" % (n, ctx.inputs[\"n\"])}\n",
		"scripts/main.star.yaml": "inputs:\n  n: { type: string }\noutputs:\n  out: { type: string }\n",
	})
	scripts := &ScriptCache{}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, Scripts: scripts})
			n := fmt.Sprint(i)
			res, err := call(t, h, starEnv(dir), map[string]any{"script": "scripts/main.star", "inputs": map[string]any{"n": n}})
			// The module's top level ran afresh for this call.
			if err != nil || res.Data["out"] != "v1 1 "+n {
				errs <- fmt.Errorf("call %d: %+v %v", i, res, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(scripts.progs) != 3 {
		t.Errorf("kept %d entries, want the script, its module and its sidecar", len(scripts.progs))
	}

	lib := "n = 7\n"
	if err := os.WriteFile(filepath.Join(dir, "lib/count.star"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	main := "load(\"//lib/count.star\", \"n\")\ndef main(ctx):\n    return {\"out\": \"v2 %d\" % n}\n"
	if err := os.WriteFile(filepath.Join(dir, "scripts/main.star"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, Scripts: scripts})
	if d := mustOK(t, h, starEnv(dir), map[string]any{"script": "scripts/main.star", "inputs": map[string]any{"n": "1"}}); d["out"] != "v2 7" {
		t.Errorf("edited script: %v", d)
	}
	side := "outputs:\n  out: { type: int }\n"
	if err := os.WriteFile(filepath.Join(dir, "scripts/main.star.yaml"), []byte(side), 0o644); err != nil {
		t.Fatal(err)
	}
	wantDomainErr(t, h, starEnv(dir), map[string]any{"script": "scripts/main.star"}, "edited sidecar", `output "out" is declared int`)
}

// The same script through one handler twice: the second call reuses the
// program and gives the same answer.
func TestScriptCacheSameAnswer(t *testing.T) {
	dir, _ := filepath.Abs("testdata/starlark_min")
	args := map[string]any{"script": "scripts/fetch_widget.star", "inputs": map[string]any{"widget_id": "42"}}
	h := NewStarlarkRun(StarlarkOptions{HTTPCassette: loadHTTP(t, filepath.Join(dir, "cassettes/widget_ok.http.yaml"))})
	first := sprint(mustOK(t, h, starEnv(dir), args))
	if second := sprint(mustOK(t, h, starEnv(dir), args)); second != first {
		t.Errorf("second call: %s, first %s", second, first)
	}
	if n := len(h.(*starlarkRun).o.Scripts.progs); n != 2 {
		t.Errorf("kept %d entries, want the program and the sidecar", n)
	}
}
