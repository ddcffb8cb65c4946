package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Value completion through cobra's __complete entry point (what every shell
// script calls).
func TestCompleteValues(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "validate", "--format", ""}, []string{"human", "json", "github", "sarif"}},
		{[]string{"__complete", "eval", "check", "--format", ""}, []string{"human", "sarif"}},
		{[]string{"__complete", "trace", "show", "--color", ""}, []string{"auto", "always", "never"}},
		{[]string{"__complete", "fetch-models", "qwen"}, []string{"qwen2.5-1.5b-instruct"}},
		{[]string{"__complete", "run", "../examples/ci-triage", "--intent", "f"}, []string{"failed", "fix"}},
	}
	for _, tc := range cases {
		code, out, _ := runCmd(t, tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d", tc.args, code)
		}
		lines := strings.Split(out, "\n")
		for _, w := range tc.want {
			found := false
			for _, l := range lines {
				found = found || l == w
			}
			if !found {
				t.Errorf("%v: %q not offered in\n%s", tc.args, w, out)
			}
		}
	}
	// session ids under the sessions directory
	dir := t.TempDir()
	sess := filepath.Join(dir, ".kitsoki", "sessions")
	if err := os.MkdirAll(sess, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sess, "20261201T000000Z-demo-abcd.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd(t, "__complete", "trace", "show", "--sessions-dir", sess, "2026")
	if code != 0 || !strings.Contains(out, "20261201T000000Z-demo-abcd") {
		t.Errorf("trace show session completion: exit %d\n%s", code, out)
	}
}

// The bash script cobra generates, sourced in a real bash, completes values.
// bash-completion's _get_comp_words_by_ref is replaced by a four-line shim
// where the package is not installed.
func TestCompletionScriptInRealBash(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	if testing.Short() {
		t.Skip("builds the kitsoki binary")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	bin := buildKitsoki(t)
	script := `
if [ -r /usr/share/bash-completion/bash_completion ]; then . /usr/share/bash-completion/bash_completion; else
_get_comp_words_by_ref() { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
fi
source <(kitsoki completion bash)
complete_line() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=(); __start_kitsoki 2>/dev/null; echo "${COMPREPLY[*]}"; }
complete_line kitsoki validate --format ""
complete_line kitsoki trace sh
complete_line kitsoki --color n
`
	c := exec.Command(bash, "-c", script)
	c.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []string{"human json github sarif codeclimate", "show", "never"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if strings.TrimSpace(got[i]) != want[i] {
			t.Errorf("line %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
