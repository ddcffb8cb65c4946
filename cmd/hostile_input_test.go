package cmd

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// Hostile-input regression tests: every command, fed a bad path, a bad
// file or a bad flag, must fail with a message naming the thing, the place
// and the fix, the right exit code, and no half-written or clobbered file.

// hostile runs kitsoki through Run in dir (relative paths resolve there).
func hostile(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb)
	if strings.Contains(out.String()+errb.String(), "panic") {
		t.Fatalf("kitsoki %v panicked:\n%s%s", args, out.String(), errb.String())
	}
	return out.String(), errb.String(), code
}

// wantFail checks the exit code and that stderr holds every fragment.
func wantFail(t *testing.T, code int, stderr string, wantCode int, frags ...string) {
	t.Helper()
	if code != wantCode {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, wantCode, stderr)
	}
	for _, f := range frags {
		if !strings.Contains(stderr, f) {
			t.Fatalf("stderr lacks %q:\n%s", f, stderr)
		}
	}
}

// hostileDir is a scratch directory holding a copy of the triage trace as
// run.jsonl with its agent-prompts/ sidecars, and an empty directory adir.
func hostileDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyFile(t, trTriage, filepath.Join(dir, "run.jsonl"))
	storytest.CopyTree(t, filepath.Join(filepath.Dir(trTriage), "agent-prompts"), filepath.Join(dir, "agent-prompts"))
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHostileTraceToCassetteMissingSidecar(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, trTriage, filepath.Join(dir, "run.jsonl"))
	_, errOut, code := hostile(t, dir, "trace", "to-cassette", "run.jsonl", "-o", "c.yaml")
	wantFail(t, code, errOut, exitUsageEnv, "is missing beside the trace; copy the trace's agent-prompts/ folder along with it")
	if _, err := os.Stat(filepath.Join(dir, "c.yaml")); err == nil {
		t.Fatal("a failed to-cassette left c.yaml behind")
	}
}

func TestHostileTraceOutputPaths(t *testing.T) {
	for _, sub := range []string{"to-cassette", "export"} {
		t.Run(sub, func(t *testing.T) {
			dir := hostileDir(t)
			trace := filepath.Join(dir, "run.jsonl")
			before, _ := os.ReadFile(trace)

			_, errOut, code := hostile(t, dir, "trace", sub, "run.jsonl", "-o", "nodir/out")
			wantFail(t, code, errOut, exitUsageEnv, "-o nodir/out: directory nodir does not exist; create it first")

			out, errOut, code := hostile(t, dir, "trace", sub, "run.jsonl", "-o", "adir")
			wantFail(t, code, errOut, exitUsageEnv, "-o adir: is a directory")
			if strings.Contains(out, "wrote") {
				t.Fatalf("claims a write that failed:\n%s", out)
			}
			if ents, _ := os.ReadDir(filepath.Join(dir, "adir")); len(ents) != 0 {
				t.Fatalf("left files in adir: %v", ents)
			}

			_, errOut, code = hostile(t, dir, "trace", sub, "run.jsonl", "-o", "./run.jsonl")
			wantFail(t, code, errOut, exitUsageEnv, "is the input file")
			if after, _ := os.ReadFile(trace); !bytes.Equal(before, after) {
				t.Fatal("the input trace was overwritten")
			}

			_, errOut, code = hostile(t, dir, "trace", sub, "run.jsonl", "-o", "run.jsonl/x")
			wantFail(t, code, errOut, exitUsageEnv, "run.jsonl is not a directory")

			if _, _, code = hostile(t, dir, "trace", sub, "run.jsonl", "-o", "ok.out"); code != 0 {
				t.Fatalf("good export exit %d", code)
			}
			st, err := os.Stat(filepath.Join(dir, "ok.out"))
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o644 {
				t.Fatalf("output mode %v, want 0644 like any new file", st.Mode().Perm())
			}
			for _, e := range mustReadDir(t, dir) {
				if strings.HasPrefix(e, ".") {
					t.Fatalf("temporary file %s left behind", e)
				}
			}
		})
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestHostileTraceShowFlags(t *testing.T) {
	dir := hostileDir(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--width", "0"}, "--width 0: must be at least 1"},
		{[]string{"--width", "-5"}, "--width -5: must be at least 1"},
		{[]string{"--turn", "-1"}, "--turn -1: turns are numbered from 0"},
		{[]string{"--turn", "99"}, "--turn 99: run.jsonl has no turn 99 (its turns run from 0 to "},
	}
	for _, tc := range cases {
		args := append([]string{"trace", "show", "run.jsonl"}, tc.args...)
		_, errOut, code := hostile(t, dir, args...)
		wantFail(t, code, errOut, exitUsageEnv, tc.want)
	}
	if out, errOut, code := hostile(t, dir, "trace", "show", "run.jsonl", "--turn", "1", "--width", "10"); code != 0 || !strings.Contains(out, "turn 1") {
		t.Fatalf("a turn in the trace: exit %d\n%s%s", code, out, errOut)
	}
}

// evalHostileDir copies the pr-refinement corpus story (datasets and
// reports included) into a scratch directory with junk files beside it.
func evalHostileDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "pr"), os.DirFS(evCorpus)); err != nil {
		t.Fatal(err)
	}
	storytest.WriteTree(t, dir, map[string]string{
		"empty.yaml": "", "empty.json": "", "obj.json": "{}", "arr.json": "[1]",
		"bad.yaml": "a: [\n", "junk.json": "\x06\x07garbage",
	})
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestHostileEvalInputs(t *testing.T) {
	dir := evalHostileDir(t)
	const (
		ds     = "pr/evals/merge_judge.yaml"
		report = "pr/evals/reports/merge_judge/latest.json"
	)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"eval", "show", "nosuch.yaml"}, exitUsageEnv, "eval dataset nosuch.yaml: no such file or directory; give the path of an evals/*.yaml file"},
		{[]string{"eval", "show", "adir"}, exitUsageEnv, "eval dataset adir: is a directory"},
		{[]string{"eval", "show", "-"}, exitUsageEnv, "datasets are not read from standard input"},
		{[]string{"eval", "show", "empty.yaml"}, exitFinding, "kitsoki: empty.yaml: empty file (a dataset starts with kind: agent_eval)"},
		{[]string{"eval", "show", "bad.yaml"}, exitFinding, "kitsoki: bad.yaml: parse YAML:"},
		{[]string{"eval", "run", "empty.yaml"}, exitFinding, "empty.yaml: empty file"},
		{[]string{"eval", "show", "nosuch.json"}, exitUsageEnv, "eval report nosuch.json: no such file or directory"},
		{[]string{"eval", "show", "empty.json"}, exitFinding, "eval report empty.json: empty file"},
		{[]string{"eval", "show", "obj.json"}, exitFinding, `eval report obj.json: kind is "", want "agent_eval_report"`},
		{[]string{"eval", "show", "arr.json"}, exitFinding, "the top level: expected an object, got a list"},
		{[]string{"eval", "show", "junk.json"}, exitFinding, "line 1, column 1: invalid character"},
		{[]string{"eval", "merge", ds, "obj.json"}, exitFinding, `eval report obj.json: kind is ""`},
		{[]string{"eval", "list", "adir"}, exitUsageEnv, "eval list: adir is not a story directory"},
		{[]string{"eval", "list", "-"}, exitUsageEnv, "not read from standard input"},
		{[]string{"eval", "check", "adir"}, exitUsageEnv, "eval check: adir is not a story directory (no app.yaml and no evals/*.yaml)"},
		{[]string{"eval", "run", ds, "-j", "-1"}, exitUsageEnv, "--jobs -1: must be 0 (one per CPU) or more"},
		{[]string{"eval", "run", ds, "--retries", "-1"}, exitUsageEnv, "--retries -1: must be 0 or more"},
		{[]string{"eval", "run", ds, "--timeout", "-1s"}, exitUsageEnv, "--timeout -1s: must not be negative"},
		{[]string{"eval", "run", ds, "-o", "adir"}, exitUsageEnv, "-o adir: is a directory"},
		{[]string{"eval", "run", ds, "-o", ds}, exitUsageEnv, "-o " + ds + ": is also an input"},
		{[]string{"eval", "merge", ds, report, "-o", ds}, exitUsageEnv, "-o " + ds + ": is also an input"},
		{[]string{"eval", "merge", ds, report, "-o", report}, exitUsageEnv, "-o " + report + ": is also an input"},
		{[]string{"eval", "show", report, "--html", "adir"}, exitUsageEnv, "write adir: is a directory"},
		{[]string{"eval", "show", report, "--html", report}, exitUsageEnv, "is also an input"},
		{[]string{"eval", "show", ds, "--html", report}, exitUsageEnv, "is also an input"},
	}
	corpus, err := filepath.Abs(evCorpus)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, report))
	if err != nil {
		t.Fatal(err)
	}
	dsBefore, err := os.ReadFile(filepath.Join(dir, ds))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		_, errOut, code := hostile(t, dir, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("kitsoki %s: exit %d, want %d with %q; stderr:\n%s", strings.Join(tc.args, " "), code, tc.code, tc.want, errOut)
		}
		if strings.Contains(errOut, dir) {
			t.Errorf("kitsoki %s: stderr names the absolute scratch path:\n%s", strings.Join(tc.args, " "), errOut)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, report)); !bytes.Equal(before, after) {
		t.Fatal("an eval command overwrote the report it read")
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ds)); !bytes.Equal(dsBefore, after) {
		t.Fatal("an eval command overwrote the dataset it read")
	}
	if ents := mustReadDir(t, filepath.Join(dir, "adir")); len(ents) != 0 {
		t.Fatalf("files left in adir: %v", ents)
	}
	// A story without datasets lists nothing but says so.
	if err := os.CopyFS(filepath.Join(dir, "bare"), os.DirFS(corpus)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "bare", "evals")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := hostile(t, dir, "eval", "list", "bare")
	if code != 0 || out != "" || !strings.Contains(errOut, "no eval datasets under bare/evals") {
		t.Fatalf("list of a story without evals: exit %d\n%s%s", code, out, errOut)
	}
}

func TestHostileFetchInputs(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KITSOKI_PINS", "")
	t.Setenv("KITSOKI_CACHE_DIR", filepath.Join(dir, "cache"))
	// A release archive whose bytes are not gzip, pinned with its true
	// digest, served on loopback.
	junk := []byte("\x06\x07 this is not a tar.gz")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/missing.gguf") {
			http.NotFound(w, r)
			return
		}
		w.Write(junk)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("KITSOKI_MIRROR", srv.URL) // every download, shims included, stays on loopback
	sum := sha256.Sum256(junk)
	files := map[string]string{
		"unknown.yaml": "models:\n  m:\n    id: m\n    size: big\n    bogus: 1\n",
		"junk.yaml":    "llama_server:\n  " + runtime.GOOS + "/" + runtime.GOARCH + ":\n    id: ls-junk\n    url: " + srv.URL + "/a.tar.gz\n    sha256: " + hex.EncodeToString(sum[:]) + "\n    format: tar.gz\n    members: [llama-server]\nshims: {}\n",
		"afile":        "",
		"404.yaml":     "models:\n  gone:\n    id: gone\n    url: https://models.invalid/missing.gguf\n    sha256: " + strings.Repeat("a", 64) + "\n    format: gguf\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"fetch-models", "--list", "--pins", "unknown.yaml"}, exitUsageEnv,
			[]string{`unknown.yaml:4:11: models.m.size: expected an integer, got "big"; unknown.yaml:5:5: models.m: unknown key "bogus"; expected one of ` + "`default`"}},
		{[]string{"fetch-models", "--list", "--pins", "-"}, exitUsageEnv,
			[]string{"pins overlay -: pin files are not read from standard input"}},
		{[]string{"fetch-models", "--list", "--cache-dir", "afile"}, exitUsageEnv,
			[]string{"--cache-dir afile: is a file, not a directory"}},
		{[]string{"fetch-llama-server", "--platform", "linux/amd64/x"}, exitUsageEnv,
			[]string{`--platform "linux/amd64/x": want os/arch`}},
		{[]string{"fetch-models", "--pins", "404.yaml", "--cache-dir", "c", "gone"}, exitFinding,
			[]string{"http 404", "(nothing was downloaded; run the fetch again"}},
		{[]string{"fetch-llama-server", "--pins", "junk.yaml", "--cache-dir", "c"}, exitFinding,
			[]string{"not a valid tar.gz (invalid header); its sha256 matched the pin in junk.yaml, so check that pin's format (tar.gz) and url"}},
	}
	for _, tc := range cases {
		_, errOut, code := hostile(t, dir, tc.args...)
		wantFail(t, code, errOut, tc.code, tc.want...)
		for _, banned := range []string{"fetch.pinFile", "fetch.Artifact", "gzip: gzip:"} {
			if strings.Contains(errOut, banned) {
				t.Errorf("kitsoki %v: Go-internal text %q in:\n%s", tc.args, banned, errOut)
			}
		}
	}
	t.Setenv("KITSOKI_CACHE_DIR", filepath.Join(dir, "afile"))
	_, errOut, code := hostile(t, dir, "fetch-models", "--list")
	wantFail(t, code, errOut, exitUsageEnv, "$KITSOKI_CACHE_DIR "+filepath.Join(dir, "afile")+": is a file, not a directory")
}

func TestHostileValidateInputs(t *testing.T) {
	dir := hostileDir(t)
	_, errOut, code := hostile(t, dir, "validate", "-", "adir")
	wantFail(t, code, errOut, exitUsageEnv, "-: a story read from standard input is checked alone")
	_, errOut, code = hostile(t, dir, "validate", "-j", "-1", "adir")
	wantFail(t, code, errOut, exitUsageEnv, "--jobs -1: must be 0 (one per CPU) or more")
	_, errOut, code = hostile(t, dir, "validate", "adir")
	wantFail(t, code, errOut, exitUsageEnv, "adir: not a story directory (no app.yaml); use adir/... to search below it")
}

func TestHostileTraceLookup(t *testing.T) {
	dir := hostileDir(t)
	_, errOut, code := hostile(t, dir, "trace", "verify", "nosuch.jsonl")
	wantFail(t, code, errOut, exitUsageEnv, `open trace "nosuch.jsonl": no such file, and no session trace under .kitsoki/sessions has that id`)
	_, errOut, code = hostile(t, dir, "trace", "show", "adir")
	wantFail(t, code, errOut, exitUsageEnv, "adir is a directory; pass a trace file")
	out, _, code := hostile(t, dir, "trace", "ls", "--sessions-dir", "nosuch")
	if code != 0 || !strings.Contains(out, "no traces under nosuch (the directory does not exist") {
		t.Fatalf("ls of a missing sessions dir: exit %d\n%s", code, out)
	}
}

// A trace holds text from agents and stories; printing it must not let
// that text drive the terminal with escape sequences.
func TestHostileTraceEscapeSequences(t *testing.T) {
	dir := hostileDir(t)
	const esc = "\x1b]0;pwned\x07\x1b[31m"
	b, err := os.ReadFile(filepath.Join(dir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		p, _ := ev["payload"].(map[string]any)
		switch ev["kind"] {
		case "machine.say":
			p["text"] = esc + "say"
		case "agent.call.start":
			p["model"] = esc + "model"
			p["agent"] = esc + "agent"
			p["prompt"] = esc + "prompt"
			delete(p, "prompt_file")
		}
		nl, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(nl))
	}
	if err := os.WriteFile(filepath.Join(dir, "evil.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"trace", "show", "--prompts", "--color", "never", "evil.jsonl"},
		{"trace", "calls", "evil.jsonl"},
		{"trace", "stats", "evil.jsonl"},
	} {
		out, errOut, code := hostile(t, dir, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%v prints raw escape sequences:\n%q", args, out)
		}
		if args[1] != "stats" && !strings.Contains(out, `\x1b]0;pwned\x07`) {
			t.Errorf("%v hides the text instead of escaping it:\n%s", args, out)
		}
	}
}

func TestHostileValidateDirectoryWhereFileExpected(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, "../examples/pr-review", filepath.Join(dir, "s"))
	schema := filepath.Join(dir, "s", "schemas", "verdict.json")
	if err := os.Remove(schema); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(schema, 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := hostile(t, dir, "validate", "s")
	if code != exitFinding || !strings.Contains(out, `with.schema "schemas/verdict.json": is a directory; name a file`) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestHostileUnknownSubcommand(t *testing.T) {
	for _, group := range []string{"eval", "trace", "completion", "mcp"} {
		out, errOut, code := hostile(t, "", group, "nosuch")
		wantFail(t, code, errOut, exitUsageEnv, `unknown command "nosuch" for "kitsoki `+group+`"`)
		if out != "" {
			t.Errorf("%s nosuch printed help to stdout:\n%s", group, out)
		}
		if out, _, code := hostile(t, "", group); code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%s alone: exit %d, want its help:\n%s", group, code, out)
		}
	}
}

func TestHostileRunTraceOverStory(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, "../examples/pr-review", filepath.Join(dir, "s"))
	for _, victim := range []string{"s/app.yaml", "s/cassettes/review.cassette.yaml"} {
		before, err := os.ReadFile(filepath.Join(dir, victim))
		if err != nil {
			t.Fatal(err)
		}
		_, errOut, code := hostile(t, dir, "run", "s", "--cassette", "s/cassettes/review.cassette.yaml", "--trace", victim)
		wantFail(t, code, errOut, exitUsageEnv, "the file exists and is not a kitsoki trace")
		if after, _ := os.ReadFile(filepath.Join(dir, victim)); !bytes.Equal(before, after) {
			t.Fatalf("run --trace %s overwrote it", victim)
		}
	}
}

// Text quoted from a dataset or a story (a call id, a key) never reaches
// the terminal as raw escape sequences, in eval output, diagnostics or
// error messages.
func TestHostileEvalEscapeSequences(t *testing.T) {
	dir := evalHostileDir(t)
	ds := filepath.Join(dir, "pr", "evals", "merge_judge.yaml")
	b, err := os.ReadFile(ds)
	if err != nil {
		t.Fatal(err)
	}
	evil := strings.Replace(string(b), "call: merge_judge", `call: "\e]0;pwned\a"`, 1)
	if evil == string(b) {
		t.Fatal("dataset has no call: merge_judge line")
	}
	if err := os.WriteFile(ds, []byte(evil), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"eval", "list", "pr"},
		{"eval", "show", "pr/evals/merge_judge.yaml"},
		{"eval", "check", "pr"},
		{"eval", "check", "--format", "github", "pr"},
		{"eval", "run", "pr/evals/merge_judge.yaml"}, // the call is not found: nothing runs
	} {
		out, errOut, _ := hostile(t, dir, args...)
		if strings.ContainsAny(out+errOut, "\x1b\x07") {
			t.Errorf("%v prints raw escape sequences:\n%q\n%q", args, out, errOut)
		}
		if !strings.Contains(out+errOut, `\x1b]0;pwned`) {
			t.Errorf("%v does not show the escaped call:\n%s%s", args, out, errOut)
		}
	}
}
