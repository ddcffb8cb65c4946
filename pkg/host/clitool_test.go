package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// binDir makes a directory holding an executable named each of names (a
// real file the real exec.LookPath finds) and returns it.
func binDir(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCLIBuiltinsAbsent: without their programs on PATH the six CLI-backed
// built-ins check their arguments, then answer upstream's "not available"
// domain error (conformance builtins-cli-absent); host.diff.open answers
// its data whatever the arguments.
func TestCLIBuiltinsAbsent(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // an empty directory: nothing is found
	r := Builtins(Options{Getenv: noEnv})
	get := func(name string) Handler {
		h, _, _, ok := r.Lookup(name)
		if !ok {
			t.Fatalf("%s not registered", name)
		}
		return h
	}
	cases := []struct {
		handler string
		args    map[string]any
		want    string
	}{
		{HandlerGHTicket, nil, "host.gh.ticket: op argument is required"},
		{HandlerGHTicket, map[string]any{"op": uint64(3)}, "host.gh.ticket: op argument is required"},
		{HandlerGHTicket, map[string]any{"op": "nope"}, "host.gh.ticket: gh CLI not available — install github.com/cli/cli and run `gh auth login`"},
		{HandlerCypilotArtifacts, map[string]any{}, "host.cypilot_artifacts: op argument is required"},
		{HandlerCypilotArtifacts, map[string]any{"op": "list"}, "host.cypilot_artifacts: cpt CLI not available — install cypilot"},
		{HandlerSlideyRender, map[string]any{"spec_path": "  "}, "host.slidey.render: spec_path argument is required"},
		{HandlerSlideyRender, map[string]any{"spec_path": "d.yaml", "format": uint64(3)}, "host.slidey.render: format argument is required (mp4|pdf|html)"},
		{HandlerSlideyRender, map[string]any{"spec_path": "d.yaml", "format": "gif"}, `host.slidey.render: unsupported format "gif" (must be mp4, pdf, or html)`},
		{HandlerSlideyRender, map[string]any{"spec_path": "nope.yaml", "format": " HTML "}, "host.slidey.render: slidey not found: set SLIDEY_HOME to the slidey checkout or add `slidey` to PATH"},
		{HandlerContactSheet, map[string]any{"dir": uint64(4)}, "host.contact_sheet: dir argument is required"},
		{HandlerContactSheet, map[string]any{"dir": "nope"}, "host.contact_sheet: ffmpeg not found — install ffmpeg and ensure it is on PATH"},
		{HandlerVideoFrame, map[string]any{"t_ms": "1"}, "host.video.frame: video argument is required"},
		{HandlerVideoFrame, map[string]any{"video": []any{1}}, "host.video.frame: video argument must be a path string or a media handle map, got []interface {}"},
		{HandlerVideoFrame, map[string]any{"video": map[string]any{"path": uint64(3)}}, "host.video.frame: video handle has no `path` field"},
		{HandlerVideoFrame, map[string]any{"video": "x.mp4"}, "host.video.frame: t_ms argument is required"},
		{HandlerVideoFrame, map[string]any{"video": "x.mp4", "t_ms": "1.5"}, "host.video.frame: t_ms must be a number, got string"},
		{HandlerVideoFrame, map[string]any{"video": "x.mp4", "t_ms": nil}, "host.video.frame: t_ms must be a number, got <nil>"},
		{HandlerVideoFrame, map[string]any{"video": "x.mp4", "t_ms": true}, "host.video.frame: t_ms must be a number, got bool"},
		{HandlerVideoFrame, map[string]any{"video": "x.mp4", "t_ms": -5.5}, "host.video.frame: t_ms must be >= 0, got -5"},
		{HandlerVideoFrame, map[string]any{"video": "x.mp4", "t_ms": " -3 "}, "host.video.frame: t_ms must be >= 0, got -3"},
		{HandlerVideoFrame, map[string]any{"video": map[string]any{"path": "x.mp4"}, "t_ms": -0.5}, "host.video.frame: ffmpeg not found"},
		{HandlerVideoFrame, map[string]any{"video": "x.mp4", "t_ms": uint64(1000)}, "host.video.frame: t_ms must be a number, got uint64"},
		{HandlerVideoFrame, map[string]any{"video": "x.mp4", "t_ms": 1000}, "host.video.frame: ffmpeg not found"},
		{HandlerVideoFrame, map[string]any{"video": 4, "t_ms": 1000}, "host.video.frame: video argument must be a path string or a media handle map, got int"},
	}
	for _, c := range cases {
		res, err := call(t, get(c.handler), Env{}, c.args)
		if err != nil || !strings.HasPrefix(res.Error, c.want) || res.Data != nil {
			t.Errorf("%s %v: %q, data %v (infra %v), want the domain error %q", c.handler, c.args, res.Error, res.Data, err, c.want)
		}
	}
	// a prefix call's op is the dropped suffix
	h, _, op, _ := r.Lookup("host.gh.ticket.search")
	res, _ := h.Call(t.Context(), &Call{Handler: "host.gh.ticket.search", Op: op, Args: map[string]any{}})
	if !strings.Contains(res.Error, "gh CLI not available") {
		t.Errorf("host.gh.ticket.search: %q", res.Error)
	}
	d := mustOK(t, get(HandlerDiffOpen), Env{}, map[string]any{"left": "a", "right": "b"})
	if len(d) != 3 || d["reviewed"] != true || d["surface"] != "difftool:git" || d["verdict"] != nil {
		t.Errorf("host.diff.open: %v", d)
	}
}

// TestCLIBuiltinsPresent: with the program installed kitsoki still starts
// nothing: the answer names the program and the stub that serves the call
// (docs/compat/hosts.md), so a run never reaches GitHub or a GUI.
func TestCLIBuiltinsPresent(t *testing.T) {
	dir := binDir(t, "gh", "cpt", "slidey", "ffmpeg")
	t.Setenv("PATH", dir)
	// each stand-in program would leave this file behind if it ran
	for _, n := range []string{"gh", "cpt", "slidey", "ffmpeg"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\ntouch "+filepath.Join(dir, "ran")+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := Builtins(Options{Getenv: noEnv})
	for name, args := range map[string]map[string]any{
		HandlerGHTicket:         {"op": "get"},
		HandlerCypilotArtifacts: {"op": "list"},
		HandlerSlideyRender:     {"spec_path": "d.yaml", "format": "pdf"},
		HandlerContactSheet:     {"dir": "frames"},
		HandlerVideoFrame:       {"video": "x.mp4", "t_ms": 0},
	} {
		h, _, _, _ := r.Lookup(name)
		res, err := call(t, h, Env{}, args)
		if err != nil || !strings.Contains(res.Error, "kitsoki does not run") || !strings.Contains(res.Error, "stub "+name+" under host_handlers") {
			t.Errorf("%s: %q (infra %v)", name, res.Error, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("a program was started")
	}
	// SLIDEY_HOME stands for slidey on PATH
	t.Setenv("PATH", t.TempDir())
	r = Builtins(Options{Getenv: func(k string) string {
		if k == "SLIDEY_HOME" {
			return "/opt/slidey"
		}
		return ""
	}})
	h, _, _, _ := r.Lookup(HandlerSlideyRender)
	if res, _ := call(t, h, Env{}, map[string]any{"spec_path": "d.yaml", "format": "mp4"}); !strings.Contains(res.Error, "kitsoki does not run slidey") {
		t.Errorf("SLIDEY_HOME set: %q", res.Error)
	}
}
