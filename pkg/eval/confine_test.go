package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// confineTree is a checkout beside a directory it must never read:
//
//	outside/e.yaml, outside/evals/e.yaml   datasets holding CANARYeval
//	outside/story/app.yaml                 a story holding CANARYeval
//	repo/.git/  repo/app.yaml              the checkout and its story
func confineTree(t *testing.T) (repo, outside string) {
	t.Helper()
	root := t.TempDir()
	repo, outside = filepath.Join(root, "repo"), filepath.Join(root, "outside")
	ds := "kind: agent_eval\napp: ../app.yaml\ncall: CANARYeval\ncomparator: {kind: exact}\nexamples: [{name: CANARYeval, args: {}, expect: {a: 1}}]\n"
	for p, s := range map[string]string{
		filepath.Join(outside, "e.yaml"):            ds,
		filepath.Join(outside, "evals", "e.yaml"):   ds,
		filepath.Join(outside, "story", "app.yaml"): "app: {id: CANARYeval}\nroot: CANARYeval\nstates: {CANARYeval: {terminal: true}, broken: {on: {x: [{target: CANARYeval_missing}]}}}\n",
		filepath.Join(repo, "app.yaml"):             "app: {id: repo}\nroot: a\nstates: {a: {terminal: true}}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return repo, outside
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

// TestDatasetThroughSymlinkOutIsRefusedUnread: a dataset under the
// checkout's evals/ that is a symlink leading out, or inside an evals/
// that is one, is refused naming the file, and nothing of it is read.
func TestDatasetThroughSymlinkOutIsRefusedUnread(t *testing.T) {
	for name, link := range map[string]func(repo, outside string){
		"file": func(repo, outside string) {
			symlink(t, filepath.Join(outside, "e.yaml"), filepath.Join(repo, "evals", "e.yaml"))
		},
		"dir": func(repo, outside string) { symlink(t, "../outside/evals", filepath.Join(repo, "evals")) },
	} {
		t.Run(name, func(t *testing.T) {
			repo, outside := confineTree(t)
			link(repo, outside)
			paths, err := Discover(repo)
			if name == "dir" {
				// evals/ itself leads out: not listed, so no name of a
				// file there is printed.
				if err == nil || len(paths) != 0 || strings.Contains(err.Error(), "CANARY") || !strings.Contains(err.Error(), "symlink") {
					t.Fatalf("Discover = %v, %v; want a refusal of evals/ listing nothing", paths, err)
				}
				paths = []string{filepath.Join(repo, "evals", "e.yaml")}
			} else if err != nil || len(paths) != 1 {
				t.Fatalf("Discover = %v, %v; want evals/e.yaml", paths, err)
			}
			d, err := LoadDataset(paths[0])
			if err == nil {
				t.Fatalf("LoadDataset read the dataset outside the checkout: call %q", d.Call)
			}
			if msg := err.Error(); strings.Contains(msg, "CANARY") || !strings.Contains(msg, "symlink") || !strings.Contains(msg, "e.yaml") {
				t.Errorf("error = %q, want the refusal naming e.yaml and the symlink, quoting nothing outside", msg)
			}
		})
	}
}

// TestDatasetAppOutsideTheCheckoutIsRefused: a dataset's app: that leaves
// the checkout (../ or absolute) is an error at app:, and the story there
// is not loaded (its findings would quote it).
func TestDatasetAppOutsideTheCheckoutIsRefused(t *testing.T) {
	repo, outside := confineTree(t)
	for _, app := range []string{"../../outside/story/app.yaml", filepath.Join(outside, "story", "app.yaml")} {
		p := filepath.Join(repo, "evals", "e.yaml")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("kind: agent_eval\napp: "+app+"\ncall: c\ncomparator: {kind: exact}\nexamples: [{name: n, args: {}, expect: {a: 1}}]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := LoadDataset(p)
		if err != nil {
			t.Fatal(err)
		}
		v := Validate(d, &StoryLoader{})
		var all []string
		for _, f := range v.Findings {
			all = append(all, f.Message)
		}
		out := strings.Join(all, "\n")
		if v.Story != nil || strings.Contains(out, "CANARY") || !strings.Contains(out, "leaves the project root") {
			t.Errorf("app: %s: story loaded = %v, findings:\n%s\nwant a refusal at app: quoting nothing outside", app, v.Story != nil, out)
		}
	}
}

// TestSelectionEvidenceOutsideTheCheckoutIsRefusedUnread: a story's
// selection.evidence that leaves the checkout is refused at the key,
// unread (a JSON file's kind would otherwise be quoted), and the prompt
// it names outside is not hashed.
func TestSelectionEvidenceOutsideTheCheckoutIsRefusedUnread(t *testing.T) {
	repo, outside := confineTree(t)
	for p, s := range map[string]string{
		filepath.Join(outside, "report.json"):    `{"kind":"CANARYeval"}`,
		filepath.Join(outside, "p.md"):           "CANARYeval\n",
		filepath.Join(repo, "schemas", "s.json"): `{"type":"object"}`,
		filepath.Join(repo, "evals", "e.yaml"):   "kind: agent_eval\napp: ../app.yaml\ncall: judge_call\nagent: j\nmatrix: {profiles: [judge]}\ncomparator: {kind: exact}\nexamples: [{name: n, args: {}, expect: {a: 1}}]\n",
		filepath.Join(repo, "app.yaml"): `app: {id: repo}
agent_plugins:
  agent.judge: { plugin: subprocess, command: /bin/false }
hosts: [host.agent.decide]
agents:
  j: { system_prompt: "x" }
root: ask
states:
  ask:
    on_enter:
      - invoke: host.agent.decide
        id: judge_call
        with: { agent: j, prompt: ../outside/p.md, schema: schemas/s.json }
        selection: { profile: judge, evidence: ../outside/report.json }
`,
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := (&StoryLoader{}).Load(filepath.Join(repo, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, d := range CheckSelections(st.Story) {
		all = append(all, d.String())
	}
	out := strings.Join(all, "\n")
	if strings.Contains(out, "CANARY") || !strings.Contains(out, `selection.evidence "../outside/report.json" leaves the project root`) {
		t.Errorf("CheckSelections:\n%s\nwant the evidence refused at its key, quoting nothing outside", out)
	}
	d, err := LoadDataset(filepath.Join(repo, "evals", "e.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cs := findCallSite(st.Story, "judge_call")
	if h := computeHashes(d, st.Story, cs); h.Prompt != "" {
		t.Errorf("the prompt outside the checkout was hashed: %s", h.Prompt)
	}
}
