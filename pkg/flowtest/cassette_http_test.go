package flowtest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// KITSOKI_HTTP_CASSETTE_RECORD replaces a fixture's starlark_http_cassette
// record_mode, as upstream's flow rig does; a recording cassette sends
// what it lacks to the network (a loopback server here) and is written
// back when the fixture ends, keeping the file's own record_mode (probed:
// hunt71, docs/compat/hosts.md).
func TestHTTPCassetteRecordEnv(t *testing.T) {
	srv, hits := storytest.JSONServer(t, func(*http.Request) string { return `{"name":"live"}` })
	const app = `app: {id: rec, version: 0.1.0}
hosts: [host.starlark.run]
world:
  base: {type: string, default: ""}
  name: {type: string, default: ""}
intents:
  go: {description: go}
root: s
states:
  s:
    "on":
      go:
        - effects:
            - invoke: host.starlark.run
              with: {script: f.star, inputs: {base: "{{ world.base }}"}}
              bind: {name: name}
          target: t
    view: S
  t:
    view: "T {{ world.name }}"
`
	run := func(t *testing.T, mode, env string) (*Result, string) {
		t.Helper()
		t.Setenv("KITSOKI_HTTP_CASSETTE_RECORD", env)
		dir := t.TempDir()
		head := "kind: http_cassette\n"
		if mode != "" {
			head += "record_mode: " + mode + "\n"
		}
		storytest.WriteTree(t, dir, map[string]string{
			"app.yaml":          app,
			"f.star":            "def main(ctx):\n    return {\"name\": ctx.http.get(ctx.inputs[\"base\"] + \"/w\").json()[\"name\"]}\n",
			"f.star.yaml":       "inputs:\n  base: { type: string }\noutputs:\n  name: { type: string }\n",
			"flows/f.yaml":      fmt.Sprintf("test_kind: flow\ninitial_state: s\ninitial_world: {base: %q}\nstarlark_http_cassette: c.http.yaml\nturns:\n  - intent: {name: go}\n    expect_world: {name: live}\n", srv.URL),
			"flows/c.http.yaml": head + "exchanges:\n  - request: {method: GET, url: \"https://example.invalid/other\"}\n    response: {status: 200, body: '{}'}\n",
		})
		files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "f.yaml"), false, nil)
		if err != nil || len(files) != 1 {
			t.Fatalf("discover: %v (%d files)", err, len(files))
		}
		rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
		if len(rs) != 1 {
			t.Fatalf("got %d results", len(rs))
		}
		b, err := os.ReadFile(filepath.Join(dir, "flows", "c.http.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return rs[0], string(b)
	}
	t.Run("the variable records", func(t *testing.T) {
		before := hits.Load()
		r, file := run(t, "", "new_episodes")
		wantPass(t, r)
		if hits.Load() != before+1 || !strings.Contains(file, srv.URL+"/w") || strings.Contains(file, "record_mode") {
			t.Errorf("%d server hits; cassette written:\n%s", hits.Load()-before, file)
		}
	})
	t.Run("the file's mode records and stays", func(t *testing.T) {
		r, file := run(t, "new_episodes", "")
		wantPass(t, r)
		if !strings.Contains(file, srv.URL+"/w") || !strings.Contains(file, "record_mode: new_episodes") {
			t.Errorf("cassette written:\n%s", file)
		}
	})
	t.Run("the variable replaces the file's mode", func(t *testing.T) {
		before := hits.Load()
		r, file := run(t, "new_episodes", "none")
		wantFail(t, r, `expect_world["name"]: got ""`) // the replay missed
		if hits.Load() != before || strings.Contains(file, srv.URL) {
			t.Errorf("a replaying cassette reached the server or was written:\n%s", file)
		}
	})
	t.Run("another value is refused", func(t *testing.T) {
		r, _ := run(t, "", "1")
		wantFail(t, r, `starlark http cassette: record_mode "1" is not supported (want none|once|new_episodes|all)`)
	})
}
