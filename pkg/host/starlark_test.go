package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/host/scriptiface"
)

func loadHTTP(t testing.TB, path string) *HTTPCassette {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseHTTPCassette(path, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func starEnv(dir string) Env { return Env{StoryDir: dir, WorkDir: dir} }

// TestStarlarkMinHappyAndError: the starlark_min fixture's two flows at the
// handler: the 200 cassette binds widget_name with the exchange summary;
// the 404 one makes the script fail(), a domain error naming the status.
func TestStarlarkMinHappyAndError(t *testing.T) {
	dir, _ := filepath.Abs("testdata/starlark_min")
	args := map[string]any{"script": "scripts/fetch_widget.star", "inputs": map[string]any{"widget_id": "42"}}
	h := NewStarlarkRun(StarlarkOptions{HTTPCassette: loadHTTP(t, filepath.Join(dir, "cassettes/widget_ok.http.yaml"))})
	d := mustOK(t, h, starEnv(dir), args)
	ex, _ := d["__http_exchanges"].([]any)
	if d["widget_name"] != "sprocket" || len(ex) != 1 || sprint(ex[0]) != "map[method:GET status:200 url:https://api.example.com/widgets/42]" {
		t.Errorf("happy: %v", d)
	}
	h = NewStarlarkRun(StarlarkOptions{HTTPCassette: loadHTTP(t, filepath.Join(dir, "cassettes/widget_404.http.yaml"))})
	res, err := call(t, h, starEnv(dir), args)
	if err != nil || res.Data != nil || res.Error != "host.starlark.run: starlark: main(ctx): fail: widget fetch failed: status 404" {
		t.Errorf("404: %+v %v", res, err)
	}
}

// TestStarlarkWeather runs the weather-report glue (json + math stdlib,
// resp truthiness, nested outputs) from its recorded cassettes.
func TestStarlarkWeather(t *testing.T) {
	dir, _ := filepath.Abs("testdata/weather")
	args := map[string]any{"script": "weather_report.star", "inputs": map[string]any{"location": "Tokyo", "mode": "forecast"}}
	h := NewStarlarkRun(StarlarkOptions{HTTPCassette: loadHTTP(t, filepath.Join(dir, "forecast.http.yaml")), NoNetwork: true})
	d := mustOK(t, h, starEnv(dir), args)
	if d["place"] != "Tokyo, Japan" || d["coords"] != "35.69°N, 139.69°E · tz Asia/Tokyo" {
		t.Errorf("forecast: %v", d)
	}
	rows, _ := d["rows"].([]any)
	if len(rows) != 5 || !strings.HasPrefix(d["headline"].(string), "Now 19.8°C, partly cloudy") {
		t.Errorf("rows %d headline %q", len(rows), d["headline"])
	}
	if ex, _ := d["__http_exchanges"].([]any); len(ex) != 2 {
		t.Errorf("exchanges: %v", ex)
	}
	h = NewStarlarkRun(StarlarkOptions{HTTPCassette: loadHTTP(t, filepath.Join(dir, "not_found.http.yaml")), NoNetwork: true})
	args["inputs"] = map[string]any{"location": "Zzqxville", "mode": "forecast"}
	res, _ := call(t, h, starEnv(dir), args)
	if !strings.Contains(res.Error, "no place found matching") || !strings.HasPrefix(res.Error, "host.starlark.run: ") {
		t.Errorf("not found: %q", res.Error)
	}
	// a request the cassette lacks is a domain error, never the network.
	args["inputs"] = map[string]any{"location": "Paris", "mode": "forecast"}
	wantDomainErr(t, h, starEnv(dir), args, "miss", "starlark http replay: no episode matched GET https://geocoding-api.open-meteo.com/v1/search?name=Paris")
}

// TestStarlarkReferenceP7 reproduces p7's derive.star: dict inputs, a
// world.get of a missing key, int doubling; and the attribute form fails
// as upstream does.
func TestStarlarkReferenceP7(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"scripts/derive.star":      "def main(ctx):\n    w = ctx.world.get(\"missing\")\n    return {\"greeting\": \"hi \" + ctx.inputs[\"name\"], \"doubled\": ctx.inputs[\"n\"] * 2}\n",
		"scripts/derive.star.yaml": "inputs:\n  name: { type: string, required: true }\n  n: { type: int, required: true }\noutputs:\n  greeting: { type: string }\n  doubled: { type: int }\n",
		"scripts/attr.star":        "def main(ctx):\n    return {\"greeting\": ctx.inputs.name}\n",
		"scripts/attr.star.yaml":   "inputs:\n  name: { type: string }\noutputs:\n  greeting: { type: string }\n",
	})
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	d := mustOK(t, h, starEnv(dir), map[string]any{"script": "scripts/derive.star", "inputs": map[string]any{"name": "bob", "n": 2}})
	if sprint(d) != "map[doubled:4 greeting:hi bob]" {
		t.Errorf("derive: %v", d)
	}
	res, _ := call(t, h, starEnv(dir), map[string]any{"script": "scripts/attr.star", "inputs": map[string]any{"name": "bob"}})
	if res.Error != "host.starlark.run: starlark: main(ctx): dict has no .name field or method" {
		t.Errorf("attr: %q", res.Error)
	}
}

func TestStarlarkChecks(t *testing.T) {
	dir := t.TempDir()
	w := func(name, src, sidecar string) {
		storytest.WriteFile(t, filepath.Join(dir, name), src)
		if sidecar != "" {
			storytest.WriteFile(t, filepath.Join(dir, name+".yaml"), sidecar)
		}
	}
	io := "inputs:\n  n: { type: int, required: true }\n  tag: { type: string, default: dflt }\noutputs:\n  out: { type: string }\n"
	w("echo.star", "def main(ctx):\n    return {\"out\": ctx.inputs.get(\"tag\", \"none\") + str(ctx.inputs[\"n\"]) + ctx.world.get(\"who\", \"?\")}\n", io)
	w("extra.star", "def main(ctx):\n    return {\"out\": \"x\", \"surprise\": 1}\n", io)
	w("wrongtype.star", "def main(ctx):\n    return {\"out\": 3}\n", io)
	w("short.star", "def main(ctx):\n    return {}\n", io)
	w("loop.star", "def main(ctx):\n    n = 0\n    while True:\n        n += 1\n", io)
	w("nomain.star", "x = 1\n", io)
	w("syntax.star", "def main(ctx)\n", io)
	w("notdict.star", "def main(ctx):\n    return [1]\n", io)
	w("nosidecar.star", "def main(ctx):\n    return {}\n", "")
	w("badsidecar.star", "def main(ctx):\n    return {}\n", "inputs:\n  a: { type: integer }\n")
	w("fsread.star", "def main(ctx):\n    return {\"out\": ctx.fs.read(ctx.inputs[\"tag\"])}\n", io)
	w("fsmisc.star", "def main(ctx):\n    return {\"out\": \"%s %s %s %s\" % (ctx.fs.exists(\"echo.star\"), ctx.fs.exists(\"nope\"), ctx.fs.glob(\"sub/**/*.txt\"), len(ctx.fs.glob(\"sub/*.md\")))}\n", io)
	w("sub/a/b.txt", "b", "")
	w("sub/c.txt", "c", "")
	w("net.star", "def main(ctx):\n    return {\"out\": ctx.http.get(\"https://example.com\").body}\n", io)

	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true, MaxSteps: 100000})
	env := starEnv(dir)
	env.World = map[string]any{"who": "w"}
	// the sidecar's default: is not applied, as upstream's is not
	d := mustOK(t, h, env, map[string]any{"script": "echo.star", "inputs": map[string]any{"n": 5}})
	if d["out"] != "none5w" {
		t.Errorf("echo: %v", d)
	}
	d = mustOK(t, h, env, map[string]any{"script": "echo.star", "inputs": map[string]any{"n": 5, "tag": "t"}, "world": map[string]any{"who": "over"}})
	if d["out"] != "t5over" {
		t.Errorf("world overlay: %v", d)
	}
	// without an inspect cassette ctx.fs reads the working directory, as
	// upstream's does; its glob is filepath.Glob (** is *)
	t.Chdir(dir)
	d = mustOK(t, h, env, map[string]any{"script": "fsmisc.star", "inputs": map[string]any{"n": 1}})
	if d["out"] != `True False ["sub/a/b.txt"] 0` {
		t.Errorf("fs: %v", d["out"])
	}
	if ins, _ := d["__inspections"].([]any); len(ins) != 4 {
		t.Errorf("inspections: %v", d["__inspections"])
	}
	d = mustOK(t, h, env, map[string]any{"script": "fsread.star", "inputs": map[string]any{"n": 1, "tag": "sub/c.txt"}})
	if d["out"] != "c" {
		t.Errorf("fs.read: %v", d)
	}
	for _, c := range []struct {
		script string
		inputs map[string]any
		want   string
	}{
		{"echo.star", map[string]any{}, `missing required input "n"`},
		{"echo.star", map[string]any{"n": "5"}, `input "n": expected int, got string`},
		{"extra.star", map[string]any{"n": 1}, `script returned undeclared output "surprise"`},
		{"wrongtype.star", map[string]any{"n": 1}, `output "out": expected string, got int64`},
		{"short.star", map[string]any{"n": 1}, `script did not return declared output "out"`},
		{"loop.star", map[string]any{"n": 1}, "Starlark computation cancelled: too many steps"},
		{"nomain.star", map[string]any{"n": 1}, "nomain.star does not define main(ctx)"},
		{"syntax.star", map[string]any{"n": 1}, "syntax.star:2:1: got newline"},
		{"notdict.star", map[string]any{"n": 1}, "must return a dict"},
		{"badsidecar.star", map[string]any{}, `unknown type "integer"`},
		{"fsread.star", map[string]any{"n": 1, "tag": "../../etc/passwd"}, `starlark fs: path "../../etc/passwd" escapes the working directory`},
		{"fsread.star", map[string]any{"n": 1, "tag": "/etc/passwd"}, `starlark fs: path "/etc/passwd" must be repo-relative, not absolute`},
		{"fsread.star", map[string]any{"n": 1, "tag": "sub"}, `starlark fs.read "sub": read ` + dir + `/sub: is a directory`},
		{"fsread.star", map[string]any{"n": 1, "tag": "nope.txt"}, `starlark fs.read "nope.txt": stat ` + dir + `/nope.txt: no such file or directory`},
		{"net.star", map[string]any{"n": 1}, "allows no network and has no http cassette"},
		{"../outside.star", map[string]any{}, `script "../outside.star" resolves outside`},
		{"", map[string]any{}, "script argument is required"},
	} {
		res, err := call(t, h, env, map[string]any{"script": c.script, "inputs": c.inputs})
		if err != nil || !strings.Contains(res.Error, c.want) || !strings.HasPrefix(res.Error, "host.starlark.run: ") {
			t.Errorf("%s %v: %q (%v), want %q", c.script, c.inputs, res.Error, err, c.want)
		}
	}
	// no sidecar / no script: infra errors (upstream: an unreadable script).
	if _, err := call(t, h, env, map[string]any{"script": "nosidecar.star"}); err == nil || !strings.Contains(err.Error(), "no readable sidecar") {
		t.Errorf("no sidecar: %v", err)
	}
	if _, err := call(t, h, env, map[string]any{"script": "gone.star"}); err == nil {
		t.Error("missing script: no infra error")
	}
}

func TestStarlarkLoadAndStruct(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"lib/util.star":          "def shout(s):\n    return s.upper() + \"!\"\n",
		"scripts/main.star":      "load(\"//lib/util.star\", \"shout\")\nload(\"helper.star\", \"twice\")\ndef main(ctx):\n    p = struct(a = 1)\n    return {\"out\": shout(\"hi\") + twice(str(p.a))}\n",
		"scripts/helper.star":    "def twice(s):\n    return s + s\n",
		"scripts/main.star.yaml": "outputs:\n  out: { type: string }\n",
		"scripts/bad.star":       "load(\"../../../etc/x.star\", \"y\")\ndef main(ctx):\n    return {}\n",
		"scripts/bad.star.yaml":  "outputs: {}\n",
		"scripts/cyc.star":       "load(\"cyc.star\", \"x\")\nx = 1\ndef main(ctx):\n    return {}\n",
		"scripts/cyc.star.yaml":  "outputs: {}\n",
	})
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	d := mustOK(t, h, starEnv(dir), map[string]any{"script": "scripts/main.star"})
	if d["out"] != "HI!11" {
		t.Errorf("load: %v", d)
	}
	wantDomainErr(t, h, starEnv(dir), map[string]any{"script": "scripts/bad.star"}, "escape", "outside the story directory")
	wantDomainErr(t, h, starEnv(dir), map[string]any{"script": "scripts/cyc.star"}, "cycle", "cycle")
}

func TestStarlarkCancel(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"spin.star":      "def main(ctx):\n    while True:\n        pass\n",
		"spin.star.yaml": "inputs: {}\noutputs: {}\n",
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := NewStarlarkRun(StarlarkOptions{MaxSteps: 1 << 62}).Call(ctx, &Call{Args: map[string]any{"script": "spin.star"}, Env: starEnv(dir)})
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a cancelled script returned no error")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the script did not stop on cancel")
	}
}

// TestInspectCassette: upstream's layout (interactions: of {op, target,
// exit, out}); each interaction answers one call in order, a probe by name
// whatever its arguments, and a call with none left fails naming every
// interaction; the calls are summarised as upstream's __inspections.
func TestInspectCassette(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"s.star": `def main(ctx):
    return {"a": [ctx.fs.read("docs/issues.md"), ctx.fs.read("docs/issues.md")], "b": [ctx.fs.exists("x"), ctx.fs.exists("y")],
            "c": ctx.probe("git.status", ["-s"]), "g": [ctx.fs.glob("*.md"), ctx.fs.glob("none/*")]}
`,
		"s.star.yaml":     "outputs:\n  a: { type: list }\n  b: { type: list }\n  c: { type: any }\n  g: { type: list }\n",
		"miss.star":       "def main(ctx):\n    return {\"a\": ctx.fs.read(\"here.md\")}\n",
		"probe.star":      "def main(ctx):\n    return {\"a\": ctx.probe(\"git.status\")}\n",
		"probe.star.yaml": "outputs:\n  a: { type: any }\n",
		"miss.star.yaml":  "outputs:\n  a: { type: string }\n",
		"here.md":         "on disk",
	})
	data := []byte(`kind: inspect_cassette
interactions:
  - { op: read, target: docs/issues.md, out: recorded, exit: 1 }
  - { op: read, target: docs/issues.md, out: again }
  - { op: exists, target: x, out: "true" }
  - { op: exists, target: y, out: "yes" }
  - { op: probe, target: git.status, exit: 3, out: clean }
  - { op: glob, target: "*.md", out: "  a.md\n\nb.md\n" }
  - { op: glob, target: "none/*", out: "\n" }
`)
	ic, err := ParseInspectCassette("c.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	d := mustOK(t, NewStarlarkRun(StarlarkOptions{Inspect: ic, NoNetwork: true}), starEnv(dir), map[string]any{"script": "s.star"})
	if sprint(d["a"]) != "[recorded again]" || sprint(d["b"]) != "[true false]" || sprint(d["c"]) != "map[exit:3 out:clean]" || sprint(d["g"]) != "[[a.md  b.md] []]" {
		t.Errorf("inspect: %v", d)
	}
	if got := sprint(d["__inspections"]); !strings.Contains(got, "map[op:glob status:matched:3 target:*.md]") || !strings.Contains(got, "map[op:probe status:exit:3 target:git.status]") || !strings.Contains(got, "map[op:exists status:missing target:y]") {
		t.Errorf("__inspections: %s", got)
	}
	// every interaction is played: a third read misses, and nothing is read from disk
	wantDomainErr(t, NewStarlarkRun(StarlarkOptions{Inspect: ic, NoNetwork: true}), starEnv(dir), map[string]any{"script": "miss.star"}, "miss",
		"host.starlark.run: starlark: main(ctx): starlark inspect replay: no interaction matched read here.md; available: read docs/issues.md, read docs/issues.md, exists x, exists y, probe git.status, glob *.md, glob none/*")
	for _, bad := range []string{"kind: http_cassette\n", "kind: [\n", "", "kind: inspect_cassette\ninteractions:\n  - { op: probe, exit: x }\n", "kind: inspect_cassette\ninteractions: {a: 1}\n"} {
		if _, err := ParseInspectCassette("c.yaml", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "c.yaml") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	// without a cassette, ctx.probe fails as upstream's does for a probe
	// not on its allow-list (kitsoki runs none)
	wantDomainErr(t, NewStarlarkRun(StarlarkOptions{NoNetwork: true}), starEnv(dir), map[string]any{"script": "probe.star"}, "no cassette", `starlark probe "git.status": not on the allow-list`)
}

func TestHTTPCassetteParse(t *testing.T) {
	wantParseErrs(t, func(src []byte) error {
		_, err := ParseHTTPCassette("c.yaml", src, nil)
		return err
	}, []parseErrCase{
		{"", "is empty"},
		{"kind: host_cassette\n", `kind is "host_cassette"`},
		{"kind: http_cassette\nrecord_mode: always\n", `record_mode "always" is not one of none, once, new_episodes, all`},
		{"kind: http_cassette\nexchanges:\n  - match: { url_pattern: \"(\" }\n    response: { status: 200 }\n", "c.yaml:3: exchanges[0]: url_pattern \"(\" is not a valid regular expression"},
		{"kind: [\n", "c.yaml:"},
	})
	c, err := ParseHTTPCassette("c.yaml", []byte("kind: http_cassette\nexchanges:\n  - match: { method: get, url_pattern: \"/w/[0-9]+$\" }\n    response: { status: 200, body: { id: 1 } }\n  - request: { method: GET, url: \"https://x/w/2\" }\n    response: { status: 201, body: two }\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := c.Answer("GET", "https://x/w/2")
	if err != nil || e.Status != 200 || e.Body != `{"id":1}` {
		t.Errorf("first: %+v %v", e, err)
	}
	e, _ = c.Answer("GET", "https://x/w/2")
	if e.Status != 201 {
		t.Errorf("second: %+v", e)
	}
	// as upstream, a played exchange is not played again: a miss
	// listing every exchange (conformance star-http)
	if _, err := c.Answer("GET", "https://x/w/2"); err == nil || err.Error() != "starlark http replay: no episode matched GET https://x/w/2; available: get /w/[0-9]+$, GET https://x/w/2" { // methods as written, as upstream lists them
		t.Errorf("third: %v", err)
	}
	if l := c.Log(); len(l) != 2 || fmt.Sprint(l[1]) != "map[method:GET status:201 url:https://x/w/2]" {
		t.Errorf("log: %v", l)
	}
	if _, err := c.Answer("POST", "https://x/w/2"); err == nil {
		t.Error("method ignored")
	}
	if len(unplayed(c)) != 0 {
		t.Errorf("unplayed: %v", unplayed(c))
	}
}

func TestSidecarParse(t *testing.T) {
	sc, err := scriptiface.Parse("s.yaml", []byte("inputs:\n  a: ~\n  b: { type: string, required: true, description: x, doc: ignored }\noutputs:\n  o: { type: list }\n"))
	if err != nil || sc.Inputs["a"].Type != "any" || sc.Inputs["b"].Type != "string" || !sc.Inputs["b"].Required || sc.Outputs["o"].Type != "list" {
		t.Fatalf("%+v %v", sc, err)
	}
	// an empty sidecar declares nothing and checks nothing, as upstream's
	// (conformance star-sidecar-default); a null one ("null", "~") is
	// refused, at load and at run time, as upstream's (probed)
	// a default is not applied, and a tagged value its tag does not fit is
	// taken, as upstream's decoder takes it (probed: the story loads)
	for _, src := range []string{"", "# notes only\n", "inputs:\n  a: { default: [1, !!int abc] }\n"} {
		sc, err := scriptiface.Parse("s.yaml", []byte(src))
		if err != nil || len(sc.Outputs) != 0 || sc.CheckOutputs(map[string]any{"any": 1}) != nil {
			t.Errorf("%q: %+v %v", src, sc, err)
		}
	}
	wantParseErrs(t, func(src []byte) error {
		_, err := scriptiface.Parse("s.yaml", src)
		return err
	}, []parseErrCase{
		{"- a\n", "s.yaml:1:1: the sidecar must be a mapping"},
		{"null\n", "s.yaml:1:1: the sidecar must be a mapping"},
		{"inputs: {}\ninputs: {}\n", `s.yaml:2:1: mapping key "inputs" already defined at line 1, column 1; the whole sidecar is refused`},
		{"inputs: [a]\n", "s.yaml:1:9: inputs: expected a mapping, got a list"},
		{"inputs:\n  a: { type: integer }\n", `s.yaml:2:6: inputs.a has unknown type "integer"`},
		{"inputs:\n  a: { required: maybe }\n", `s.yaml:2:18: inputs.a.required: expected true or false, got "maybe"`},
		// YAML 1.1's yes is text to upstream's typed decoder (probed:
		// "cannot unmarshal string into ... of type bool")
		{"inputs:\n  a: { required: yes }\n", `s.yaml:2:18: inputs.a.required: expected true or false, got "yes"`},
		{"inputs:\n  a: [1]\n", "s.yaml:2:6: inputs.a must be a mapping like {type: string, required: true}, got a list"},
		// a type name alone, and str for string, load nowhere upstream
		// (probed: "string was used where mapping is expected", `unknown
		// type "str"`); kitsoki took both before
		{"inputs:\n  a: string\n", `s.yaml:2:6: inputs.a must be a mapping like {type: string, required: true}, got "string"`},
		{"inputs:\n  a: {type: str}\n", `s.yaml:2:6: inputs.a has unknown type "str"; use one of string|int|number|bool|object|list|any`},
		{"outputs:\n  a: {}\n  a: {}\n", `s.yaml:3:3: mapping key "a" already defined at line 2, column 3`},
	})
}

// TestScriptPathFromWorkingDir: a relative script that misses under the
// story directory is retried relative to the process working directory
// (conformance probe 12), inside the story's project root only: the
// nearest ancestor with .git or .kitsoki/, else the story directory.
func TestScriptPathFromWorkingDir(t *testing.T) {
	repo := storytest.TempTree(t, map[string]string{
		".kitsoki/keep":                 "",
		"tools/shared.star":             "def main(ctx):\n    return {\"a\": 42}\n",
		"tools/shared.star.yaml":        "outputs:\n  a: { type: int }\n",
		"stories/s/app.yaml":            "app: {id: s}\n",
		"stories/s/scripts/x.star":      "def main(ctx):\n    return {\"a\": 7}\n",
		"stories/s/scripts/x.star.yaml": "outputs:\n  a: { type: int }\n",
	})
	outside := storytest.TempTree(t, map[string]string{
		"evil.star":      "def main(ctx):\n    return {\"a\": 666}\n",
		"evil.star.yaml": "outputs:\n  a: { type: int }\n",
	})
	h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
	env := starEnv(filepath.Join(repo, "stories/s"))
	t.Chdir(repo)
	for script, want := range map[string]any{"scripts/x.star": int64(7), "stories/s/scripts/x.star": int64(7), "tools/shared.star": int64(42)} {
		if d := mustOK(t, h, env, map[string]any{"script": script}); fmt.Sprint(d["a"]) != fmt.Sprint(want) {
			t.Errorf("%s: %v", script, d)
		}
	}
	// the working directory cannot lead outside the project root
	t.Chdir(outside)
	if res, err := h.Call(context.Background(), &Call{Env: env, Args: map[string]any{"script": "evil.star"}}); err == nil && res.Error == "" {
		t.Errorf("a script outside the project root ran: %+v", res)
	}
	// without a marker the root is the story directory itself
	storytest.NoMarkerAbove(t, repo)
	if err := os.Remove(filepath.Join(repo, ".kitsoki/keep")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(repo, ".kitsoki")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	if res, err := h.Call(context.Background(), &Call{Env: env, Args: map[string]any{"script": "tools/shared.star"}}); err == nil && res.Error == "" {
		t.Errorf("a script outside the story directory ran without a project root: %+v", res)
	}
	mustOK(t, h, env, map[string]any{"script": "stories/s/scripts/x.star"})
}

// unplayed lists the exchanges of c never played, as "METHOD url" strings.
func unplayed(c *HTTPCassette) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for i, e := range c.Exchanges {
		if !c.played[i] {
			out = append(out, e.label())
		}
	}
	return out
}
