package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestHandlersConcurrent: background jobs call one registry's handlers at
// the same time; under -race they share nothing but the cassette (locked)
// and the files they write.
func TestHandlersConcurrent(t *testing.T) {
	dir, _ := filepath.Abs("testdata/starlark_min")
	wd := t.TempDir()
	reg := Builtins(Options{Getenv: noEnv, Starlark: StarlarkOptions{HTTPCassette: loadHTTP(t, filepath.Join(dir, "cassettes/widget_ok.http.yaml")), NoNetwork: true}})
	star, _, _, _ := reg.Lookup(HandlerStarlarkRun)
	arts, _, _, _ := reg.Lookup(HandlerArtifactsDir)
	run, _, _, _ := reg.Lookup(HandlerRun)
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	var mu sync.Mutex
	played, missed := 0, 0
	for i := range 10 {
		wg.Add(3)
		go func() {
			defer wg.Done()
			res, err := call(t, star, Env{StoryDir: dir, WorkDir: wd}, map[string]any{"script": "scripts/fetch_widget.star", "inputs": map[string]any{"widget_id": "42"}})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && res.Data["widget_name"] == "sprocket":
				played++
			case err == nil && strings.Contains(res.Error, "starlark http replay: no episode matched"):
				missed++ // the cassette's one exchange plays once, as upstream's
			default:
				errs <- fmt.Errorf("starlark: %+v %v", res, err)
			}
		}()
		go func(i int) {
			defer wg.Done()
			res, err := call(t, arts, Env{WorkDir: wd}, map[string]any{"thread": fmt.Sprintf("t%d", i), "body": "x"})
			if err != nil || res.Error != "" {
				errs <- fmt.Errorf("artifacts: %+v %v", res, err)
			}
		}(i)
		go func(i int) {
			defer wg.Done()
			res, err := call(t, run, Env{WorkDir: wd}, map[string]any{"cmd": "echo", "args": []any{i}})
			if err != nil || res.Data["stdout"] != fmt.Sprintf("%d\n", i) {
				errs <- fmt.Errorf("run: %+v %v", res, err)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	if played != 1 || missed != 9 {
		t.Errorf("one exchange, ten calls: %d played, %d missed; want 1 and 9", played, missed)
	}
	for err := range errs {
		t.Error(err)
	}
}

func BenchmarkStarlarkWeather(b *testing.B) {
	dir, _ := filepath.Abs("testdata/weather")
	raw, err := os.ReadFile(filepath.Join(dir, "forecast.http.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"script": "weather_report.star", "inputs": map[string]any{"location": "Tokyo", "mode": "forecast"}}
	for b.Loop() {
		// a cassette answers each recorded exchange once: a fresh one
		// per call, parsed inside the loop as a story's would be
		c, err := ParseHTTPCassette("forecast.http.yaml", raw, nil)
		if err != nil {
			b.Fatal(err)
		}
		h := NewStarlarkRun(StarlarkOptions{HTTPCassette: c, NoNetwork: true})
		res, err := h.Call(b.Context(), &Call{Args: args, Env: Env{StoryDir: dir}})
		if err != nil || res.Error != "" {
			b.Fatal(res, err)
		}
	}
}

func BenchmarkHostRunEcho(b *testing.B) {
	h := runHandler{}
	wd := b.TempDir()
	for b.Loop() {
		if _, err := h.Call(b.Context(), &Call{Args: map[string]any{"cmd": "echo", "args": []any{"x"}}, Env: Env{WorkDir: wd}}); err != nil {
			b.Fatal(err)
		}
	}
}
