package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

const rootCanary = "SECRET-CANARY-91c2e7"

// rootAttack lays out an attacker's repository (a .git marker, app.yaml)
// and beside it, outside the root, a secret whose first line is a YAML key
// (an "unknown key" error would quote it) and a story directory that would
// import cleanly. It returns the repository and the secret's folder.
func rootAttack(t *testing.T, app string, files map[string]string) (repo, secret string) {
	t.Helper()
	base := t.TempDir()
	repo, secret = filepath.Join(base, "repo"), filepath.Join(base, "secret")
	tree := map[string]string{
		"secret/shadow":       rootCanary + ": hunter2\n",
		"secret/id_rsa":       rootCanary + ": key\n",
		"secret/kid/app.yaml": "app: {id: kid}\nroot: k\nstates:\n  k: {terminal: true}\n" + rootCanary + ": 1\n",
		"secret/p/x.pongo":    rootCanary,
		"repo/.git/HEAD":      "ref: refs/heads/main\n",
		"repo/app.yaml":       app,
	}
	for p, c := range files {
		tree["repo/"+p] = c
	}
	storytest.WriteTree(t, base, tree)
	return repo, secret
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// noCanary fails when the secret reached any diagnostic.
func noCanary(t *testing.T, ds []diag.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if strings.Contains(d.String(), rootCanary) || strings.Contains(d.String(), "hunter2") {
			t.Fatalf("the secret reached a diagnostic: %s", d)
		}
	}
}

const rootBase = "app: {id: atk}\nroot: s\nstates:\n  s: {terminal: true}\n"

// Every way a story names a file outside its project root is refused at
// the key that names it, naming the path as written; nothing of the file
// reaches a diagnostic.
func TestOutsideRootRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		app   string // %s: the secret's folder
		setup func(t *testing.T, repo, secret string)
		line  int
		col   int
		want  string // in the message
	}{
		{name: "include dotdot", app: rootBase + "include:\n  - ../secret/shadow\n", line: 6, col: 5, want: `include "../secret/shadow" leaves the project root`},
		{name: "include absolute", app: rootBase + "include:\n  - %s/shadow\n", line: 6, col: 5, want: "/shadow\" leaves the project root"},
		{name: "include glob out", app: rootBase + "include: [../secret/*]\n", line: 5, col: 11, want: `include "../secret/*" leaves`},
		{name: "include symlink", app: rootBase + "include:\n  - rooms/*.yaml\n", line: 6, col: 5, want: `file "`,
			setup: func(t *testing.T, repo, secret string) {
				symlink(t, "../../secret/shadow", filepath.Join(repo, "rooms", "x.yaml"))
			}},
		{name: "include absolute symlink", app: rootBase + "include:\n  - rooms/*.yaml\n", line: 6, col: 5, want: "through a symlink",
			setup: func(t *testing.T, repo, secret string) {
				symlink(t, filepath.Join(secret, "shadow"), filepath.Join(repo, "rooms", "x.yaml"))
			}},
		{name: "include through a symlinked folder", app: rootBase + "include:\n  - rooms/*.yaml\n", line: 6, col: 5, want: "through a symlink",
			setup: func(t *testing.T, repo, secret string) {
				symlink(t, "../secret", filepath.Join(repo, "rooms"))
				if err := os.WriteFile(filepath.Join(secret, "y.yaml"), []byte(rootCanary+": 1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "import absolute", app: rootBase + "imports:\n  x:\n    source: %s/kid\n", line: 7, col: 13, want: "imports.x: source \""},
		{name: "import dotdot", app: rootBase + "imports:\n  x: {source: ../secret/kid}\n", line: 6, col: 15, want: `imports.x: source "../secret/kid" leaves`},
		{name: "import file", app: rootBase + "imports:\n  x: {source: ../secret/id_rsa}\n", line: 6, col: 15, want: `"../secret/id_rsa" leaves`},
		{name: "import symlink", app: rootBase + "imports:\n  x: {source: vendor/kid}\n", line: 6, col: 15, want: "through a symlink",
			setup: func(t *testing.T, repo, secret string) {
				symlink(t, "../../secret/kid", filepath.Join(repo, "vendor", "kid"))
			}},
		{name: "prompt shared dotdot", app: rootBase + "prompts:\n  shared: [../secret/p]\n", line: 6, col: 12, want: `prompts.shared[0] "../secret/p" leaves`},
		{name: "prompt shared deep", app: rootBase + "prompts: {shared: [x, ../../../../../../../../home]}\n", line: 5, col: 23, want: `prompts.shared[1]`},
		{name: "prompt shared symlink", app: rootBase + "prompts:\n  shared:\n    - shared\n", line: 7, col: 7, want: "through a symlink",
			setup: func(t *testing.T, repo, secret string) { symlink(t, "../secret/p", filepath.Join(repo, "shared")) }},
		{name: "overlay absolute", app: rootBase + "prompts:\n  overlay: %s/p\n", line: 6, col: 12, want: `prompts.overlay "`},
		{name: "persona prompt", app: rootBase + "agents:\n  a: {system_prompt_path: ../secret/id_rsa}\n", line: 6, col: 3, want: `system_prompt_path "../secret/id_rsa" leaves`},
		{name: "persona prompt symlink", app: rootBase + "agents:\n  a: {system_prompt_path: p.md}\n", line: 6, col: 3, want: "through a symlink",
			setup: func(t *testing.T, repo, secret string) { symlink(t, "../secret/id_rsa", filepath.Join(repo, "p.md")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			secret := filepath.Join(base, "secret")
			app := tc.app
			if strings.Contains(app, "%s") {
				app = fmt.Sprintf(app, secret)
			}
			repo, secret2 := rootAttack(t, app, nil)
			if strings.Contains(tc.app, "%s") {
				// the secret of this layout, not the placeholder's
				app = strings.ReplaceAll(app, secret, secret2)
				if err := os.WriteFile(filepath.Join(repo, "app.yaml"), []byte(app), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.setup != nil {
				tc.setup(t, repo, secret2)
			}
			_, ds := Load(repo, story.Options{LookupEnv: noEnv})
			noCanary(t, ds)
			var got *diag.Diagnostic
			for i, d := range ds {
				if d.Rule == "outside-root" {
					got = &ds[i]
				}
			}
			if got == nil {
				t.Fatalf("no outside-root refusal: %v", ds)
			}
			if got.Line != tc.line || got.Col != tc.col || !strings.Contains(got.Message, tc.want) || !strings.Contains(got.Message, repo) {
				t.Fatalf("refusal %d:%d %q, want %d:%d containing %q and the root", got.Line, got.Col, got.Message, tc.line, tc.col, tc.want)
			}
			if !strings.Contains(got.Message, "--root") {
				t.Errorf("the refusal names no fix: %s", got.Message)
			}
		})
	}
}

// Links that stay inside the root, and sibling stories inside it, load.
func TestInsideRootLoads(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	storytest.WriteTree(t, root, map[string]string{
		".git/HEAD":         "x",
		"repo/app.yaml":     rootBase + "include: [rooms/*.yaml]\nimports:\n  k: {source: ../lib/kid}\nprompts: {shared: [shared]}\n",
		"repo/parts/r.yaml": "states:\n  r: {terminal: true}\n",
		"lib/kid/app.yaml":  "app: {id: kid}\nroot: k\nstates:\n  k: {terminal: true}\n",
		"repo/shared/a.md":  "a",
	})
	symlink(t, "../parts/r.yaml", filepath.Join(repo, "rooms", "r.yaml"))
	st, ds := Load(repo, story.Options{LookupEnv: noEnv})
	if diag.HasErrors(ds) {
		t.Fatalf("%v", ds)
	}
	if st.ProjectRoot != root || st.Imports["k"].Child == nil || st.State("r") == nil {
		t.Fatalf("root %s, child %v, included state %v", st.ProjectRoot, st.Imports["k"].Child, st.State("r"))
	}
}

// The project root: the nearest .git (a folder, or a worktree's file) or
// .kitsoki/ above the story, else the story's folder; a tree the operator
// named (Options.Trees) is the fallback; Options.Root sets it and must
// hold the story.
func TestProjectRoot(t *testing.T) {
	base := t.TempDir()
	storytest.NoMarkerAbove(t, base)
	storytest.WriteTree(t, base, map[string]string{
		"a/.git":          "gitdir: elsewhere\n",
		"a/s/app.yaml":    rootBase,
		"b/.kitsoki/x":    "",
		"b/c/s/app.yaml":  rootBase,
		"t/s/app.yaml":    rootBase + "imports:\n  o: {source: ../o}\n",
		"t/o/app.yaml":    rootBase,
		"t/.kitsoki":      "a file is no marker",
		"none/s/app.yaml": rootBase,
	})
	for dir, want := range map[string]string{"a/s": "a", "b/c/s": "b", "none/s": "none/s", "t/s": "t/s"} {
		got, _ := story.ProjectRoot(filepath.Join(base, dir))
		if got != filepath.Join(base, want) {
			t.Errorf("ProjectRoot(%s) = %s, want %s", dir, got, want)
		}
	}
	// t/s imports its sibling: refused alone, loaded with t as a tree or
	// as the root.
	_, ds := Load(filepath.Join(base, "t/s"), story.Options{LookupEnv: noEnv})
	if !hasRule(ds, "outside-root") {
		t.Fatalf("sibling import with no marker: %v", ds)
	}
	for _, o := range []story.Options{{Trees: []string{filepath.Join(base, "t")}}, {Root: filepath.Join(base, "t")}, {Trees: []string{base, filepath.Join(base, "t")}}} {
		o.LookupEnv = noEnv
		st, ds := Load(filepath.Join(base, "t/s"), o)
		if diag.HasErrors(ds) {
			t.Fatalf("%+v: %v", o, ds)
		}
		if len(o.Trees) == 2 && st.ProjectRoot != base {
			t.Errorf("the widest tree is the root: %s", st.ProjectRoot)
		}
	}
	// a tree that does not hold the story changes nothing
	if _, ds := Load(filepath.Join(base, "t/s"), story.Options{LookupEnv: noEnv, Trees: []string{filepath.Join(base, "a")}}); !hasRule(ds, "outside-root") {
		t.Fatalf("%v", ds)
	}
	// --root that does not hold the story
	_, ds = Load(filepath.Join(base, "a/s"), story.Options{LookupEnv: noEnv, Root: filepath.Join(base, "b")})
	if len(ds) != 1 || ds[0].Rule != "outside-root" || !strings.Contains(ds[0].Message, "--root") {
		t.Fatalf("%v", ds)
	}
}

func hasRule(ds []diag.Diagnostic, rule string) bool {
	for _, d := range ds {
		if d.Rule == rule {
			return true
		}
	}
	return false
}

// An app.yaml that is itself a symlink leading out of its project (as
// validate ./... would find it) is refused unread.
func TestManifestSymlinkRefused(t *testing.T) {
	repo, secret := rootAttack(t, rootBase, nil)
	symlink(t, filepath.Join(secret, "shadow"), filepath.Join(repo, "sub", "app.yaml"))
	_, ds := Load(filepath.Join(repo, "sub"), story.Options{LookupEnv: noEnv})
	noCanary(t, ds)
	if len(ds) != 1 || ds[0].Rule != "outside-root" {
		t.Fatalf("%v", ds)
	}
}

// An editor buffer (Options.Overlay) for a file outside the root is not
// read through an include either.
func TestOverlayOutsideRootRefused(t *testing.T) {
	repo, secret := rootAttack(t, rootBase+"include: [../secret/shadow]\n", nil)
	_, ds := Load(repo, story.Options{LookupEnv: noEnv, Overlay: map[string][]byte{filepath.Join(secret, "shadow"): []byte(rootCanary + ": 2\n")}})
	noCanary(t, ds)
	if !hasRule(ds, "outside-root") {
		t.Fatalf("%v", ds)
	}
}
