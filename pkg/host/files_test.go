package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

func noEnv(string) string { return "" }

// TestArtifactsDirReference: the p7 probe (story-runtime.md §2.8): two
// writes give note#1 and note#2, the file holds the titled chunk, the
// separator, then pretty JSON.
func TestArtifactsDirReference(t *testing.T) {
	wd := t.TempDir()
	h := artifactsHandler{getenv: noEnv}
	env := Env{WorkDir: wd}
	d := mustOK(t, h, env, map[string]any{"thread": "note", "title": "T", "body": "hello body", "phase_id": "p1", "artifacts_root": "traces/arts"})
	if d["message_id"] != "note#1" || d["ok"] != true || d["path"] != "traces/arts/note.md" {
		t.Errorf("first: %v", d)
	}
	d = mustOK(t, h, env, map[string]any{"thread": "note", "body": map[string]any{"k": "v"}, "artifacts_root": "traces/arts"})
	if d["message_id"] != "note#2" {
		t.Errorf("second: %v", d)
	}
	b, err := os.ReadFile(filepath.Join(wd, "traces/arts/note.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "### T\n\nhello body\n\n_phase: p1_\n\n\n---\n\n{\n  \"k\": \"v\"\n}\n"
	if string(b) != want {
		t.Errorf("file:\n%q\nwant\n%q", b, want)
	}
	d = mustOK(t, h, env, map[string]any{"thread": "note", "body": "third", "artifacts_root": "traces/arts"})
	if d["message_id"] != "note#3" {
		t.Errorf("third: %v", d)
	}
	// replace resets the count
	d = mustOK(t, h, env, map[string]any{"thread": "note", "body": "fresh", "mode": "replace", "artifacts_root": "traces/arts"})
	b, _ = os.ReadFile(filepath.Join(wd, "traces/arts/note.md"))
	if d["message_id"] != "note#1" || string(b) != "fresh\n" {
		t.Errorf("replace: %v %q", d, b)
	}
	// a thread with an extension keeps it
	d = mustOK(t, h, env, map[string]any{"thread": "data.json", "body": []any{1, 2}, "artifacts_root": "traces/arts"})
	if d["path"] != "traces/arts/data.json" {
		t.Errorf("ext: %v", d)
	}
}

func TestArtifactsDirRootsAndErrors(t *testing.T) {
	wd := t.TempDir()
	env := Env{WorkDir: wd}
	// default root: <workdir>/.artifacts (absolute path reported)
	d := mustOK(t, artifactsHandler{getenv: noEnv}, env, map[string]any{"thread": "TKT-1", "body": "x"})
	if d["path"] != filepath.Join(wd, ".artifacts", "TKT-1.md") {
		t.Errorf("default root: %v", d)
	}
	// $KITSOKI_ARTIFACTS_ROOT is the operator's and may be anywhere
	other := t.TempDir()
	d = mustOK(t, artifactsHandler{getenv: func(k string) string {
		if k == "KITSOKI_ARTIFACTS_ROOT" {
			return other
		}
		return ""
	}}, env, map[string]any{"thread": "a", "body": "x"})
	if d["path"] != filepath.Join(other, "a.md") {
		t.Errorf("env root: %v", d)
	}
	h := artifactsHandler{getenv: noEnv}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"body": "x"}, "host.artifacts_dir: thread argument is required"},
		{map[string]any{"thread": "t"}, "host.artifacts_dir: body argument is required"},
		{map[string]any{"thread": true, "body": "x"}, "host.artifacts_dir: thread argument is required"},
		{map[string]any{"thread": "t", "body": "x", "artifacts_root": "../escape"}, `artifacts_root "../escape" resolves outside`},
		{map[string]any{"thread": "t", "body": "x", "artifacts_root": "/etc"}, `artifacts_root "/etc" resolves outside`},
		{map[string]any{"thread": "../../x.md", "body": "x"}, `thread "../../x.md" resolves outside`},
		{map[string]any{"thread": "v", "src_path": "clip.mp4", "kind": "audio"}, `unsupported kind "audio" (must be video/image/pdf/html/slideshow)`},
		{map[string]any{"thread": "v", "src_path": "clip.mp4"}, "kind argument is required when src_path is set"},
		{map[string]any{"thread": "v", "src_path": "../clip.mp4", "kind": "video"}, `src_path "../clip.mp4" resolves outside`},
	} {
		res, err := call(t, h, env, c.args)
		if err != nil || !strings.Contains(res.Error, c.want) {
			t.Errorf("%v: %q (%v), want %q", c.args, res.Error, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(wd), "x.md")); err == nil {
		t.Error("traversal wrote outside the working directory")
	}
}

func TestArtifactsDirSymlinkEscape(t *testing.T) {
	wd := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(wd, "link")); err != nil {
		t.Skip("no symlinks here")
	}
	res, err := call(t, artifactsHandler{getenv: noEnv}, Env{WorkDir: wd}, map[string]any{"thread": "t", "body": "x", "artifacts_root": "link/arts"})
	if err != nil || !strings.Contains(res.Error, "through a symbolic link") {
		t.Fatalf("symlink escape: %+v %v", res, err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Error("wrote through the link")
	}
}

func TestArtifactsDirMedia(t *testing.T) {
	wd := t.TempDir()
	storytest.WriteFile(t, filepath.Join(wd, "out", "clip.mp4"), "not really a video")
	d := mustOK(t, artifactsHandler{getenv: noEnv}, Env{WorkDir: wd}, map[string]any{"thread": "demo", "src_path": "out/clip.mp4", "kind": "video", "label": "Demo"})
	h, _ := d["handle"].(map[string]any)
	if d["path"] != filepath.Join(wd, ".artifacts", "demo.mp4") || h["kind"] != "video" || h["id"] != "demo#72bd93d9" || h["label"] != "Demo" || h["mime"] != "video/mp4" {
		t.Errorf("media: %v", d)
	}
	b, _ := os.ReadFile(filepath.Join(wd, ".artifacts", "demo.mp4"))
	if string(b) != "not really a video" {
		t.Errorf("copied %q", b)
	}
}

// TestAppendToFileReference: p7's bug#1 file, byte for byte.
func TestAppendToFileReference(t *testing.T) {
	wd := t.TempDir()
	env := Env{WorkDir: wd, Now: fixedClock()}
	d := mustOK(t, appendFileHandler{}, env, map[string]any{"thread": "traces/arts/bug.md", "body": "comment body", "title": "Ti", "phase_id": "ph"})
	if d["message_id"] != "bug#1" || d["ok"] != true {
		t.Errorf("first: %v", d)
	}
	b, _ := os.ReadFile(filepath.Join(wd, "traces/arts/bug.md"))
	want := "---\nfiled_at: \"2026-12-01T09:19:52Z\"\nstatus: open\ntitle: bug\n---\n# bug\n\n## Comment 2026-12-01T09:19:52Z by kitsoki\n\n### Ti\n\ncomment body\n\n_phase: ph_\n"
	if string(b) != want {
		t.Errorf("file:\n%q\nwant\n%q", b, want)
	}
	d = mustOK(t, appendFileHandler{}, env, map[string]any{"thread": "traces/arts/bug.md", "body": "second", "author": "ci", "title": 5})
	if d["message_id"] != "bug#2" {
		t.Errorf("second: %v", d)
	}
	b, _ = os.ReadFile(filepath.Join(wd, "traces/arts/bug.md"))
	if !strings.HasSuffix(string(b), "_phase: ph_\n\n## Comment 2026-12-01T09:19:52Z by ci\n\nsecond\n") { // a title that is not a string is none
		t.Errorf("second comment: %q", b)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"body": "x"}, "host.append_to_file: thread argument is required"},
		{map[string]any{"thread": "b.md"}, "host.append_to_file: body argument is required"},
		// as upstream, a body or thread that is not a string, or a blank body, is none
		{map[string]any{"thread": "b.md", "body": map[string]any{"n": 1}}, "host.append_to_file: body argument is required"},
		{map[string]any{"thread": "b.md", "body": " \n"}, "host.append_to_file: body argument is required"},
		{map[string]any{"thread": 5, "body": "x"}, "host.append_to_file: thread argument is required"},
		{map[string]any{"thread": "../b.md", "body": "x"}, `thread "../b.md" resolves outside`},
		{map[string]any{"thread": "/tmp/b.md", "body": "x"}, `thread "/tmp/b.md" resolves outside`},
	} {
		res, err := call(t, appendFileHandler{}, env, c.args)
		if err != nil || !strings.Contains(res.Error, c.want) {
			t.Errorf("%v: %q (%v), want %q", c.args, res.Error, err, c.want)
		}
	}
}

type memInbox struct{ got []Notification }

func (m *memInbox) Add(_ context.Context, n Notification) (string, error) {
	m.got = append(m.got, n)
	return "inb-" + string(rune('0'+len(m.got))), nil
}

type memJobs struct {
	answered map[string]any
	err      error
}

func (m *memJobs) AnswerClarification(_ context.Context, id string, a any) error {
	if m.err != nil {
		return m.err
	}
	m.answered[id] = a
	return nil
}

func TestInboxTransportJobs(t *testing.T) {
	// no adapter: the p7 answer
	d := mustOK(t, inboxHandler{}, Env{}, map[string]any{"title": "hi", "body": "b"})
	if d["ok"] != true || d["id"] != "" || d["persisted"] != false || d["note"] != "no inbox adapter installed; notification dropped" {
		t.Errorf("no adapter: %v", d)
	}
	in := &memInbox{}
	env := Env{State: "room", Services: &Services{Inbox: in}}
	d = mustOK(t, inboxHandler{}, env, map[string]any{"title": "hi", "body": "b", "thread": "th"})
	if d["id"] != "inb-1" || d["persisted"] != true || len(in.got) != 1 || in.got[0].Kind != "info" || in.got[0].State != "room" || in.got[0].Thread != "th" {
		t.Errorf("adapter: %v %+v", d, in.got)
	}
	for _, args := range []map[string]any{{"body": "b"}, {"title": "  ", "body": "b"}, {"title": "t"}} {
		res, _ := call(t, inboxHandler{}, env, args)
		if !strings.HasPrefix(res.Error, "host.inbox.add: ") {
			t.Errorf("%v: %q", args, res.Error)
		}
	}

	res, err := call(t, transportHandler{}, Env{}, map[string]any{"transport": "tui", "thread": "t", "body": "b"})
	if err != nil || res.Error != "host.transport.post: no transport registry installed in context" || res.Data != nil {
		t.Errorf("transport: %+v %v", res, err)
	}
	res, _ = call(t, transportHandler{}, Env{}, map[string]any{})
	if res.Error != "host.transport.post: no transport registry installed in context" {
		t.Errorf("transport with no args: %q", res.Error)
	}

	jobs := &memJobs{answered: map[string]any{}}
	env = Env{Services: &Services{Jobs: jobs}}
	d = mustOK(t, jobsAnswerHandler{}, env, map[string]any{"job_id": "J1", "answer": "yes"})
	if d["answered"] != true || d["job_id"] != "J1" || jobs.answered["J1"] != "yes" {
		t.Errorf("answer: %v", d)
	}
	jobs.err = errors.New("jobs.AnswerClarification: job J2 is not awaiting_input (status=done)")
	res, _ = call(t, jobsAnswerHandler{}, env, map[string]any{"job_id": "J2", "answer": "yes"})
	if res.Error != "host.jobs.answer_clarification: "+jobs.err.Error() {
		t.Errorf("store error: %q", res.Error)
	}
	res, _ = call(t, jobsAnswerHandler{}, Env{}, map[string]any{"job_id": "J2", "answer": "x"})
	if !strings.Contains(res.Error, "no job store") {
		t.Errorf("no store: %q", res.Error)
	}
	res, _ = call(t, jobsAnswerHandler{}, env, map[string]any{"job_id": "J2"})
	if res.Error != "host.jobs.answer_clarification: answer argument is required" {
		t.Errorf("no answer: %q", res.Error)
	}
}

func TestBuiltinsAndLookup(t *testing.T) {
	r := Builtins(Options{Getenv: noEnv})
	for _, n := range []string{HandlerRun, HandlerArtifactsDir, HandlerInboxAdd, HandlerTransportPost, HandlerAppendToFile, HandlerJobsAnswer, HandlerStarlarkRun, HandlerAgentSearch} {
		if info, ok := r.Info(n); !ok || info.Source != SourceBuiltin || info.Summary == "" {
			t.Errorf("%s: %+v %v", n, info, ok)
		}
	}
	for _, h := range []string{"host.vcsx.push", "host.chat.create"} {
		if _, _, _, ok := r.Lookup(h); ok {
			t.Errorf("%s is served before a provider registers it", h)
		}
	}
	// a provider registered at a namespace serves every op under it.
	r.RegisterInfo("host.git", HandlerFunc(func(context.Context, *Call) (Result, error) { return Result{}, nil }), Info{Source: "provider:gitp"})
	if _, served, op, ok := r.Lookup("host.git.push"); !ok || served != "host.git" || op != "push" {
		t.Errorf("prefix: %s %s %v", served, op, ok)
	}
	r.Register("host.git", HandlerFunc(func(context.Context, *Call) (Result, error) { return Result{}, nil }))
	if i, _ := r.Info("host.git"); i.Source != "" {
		t.Errorf("Register kept the old info: %+v", i)
	}
}
