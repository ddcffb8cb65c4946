package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// shellEnvReads finds the names a shell expands, and only those.
func TestShellEnvReads(t *testing.T) {
	for line, want := range map[string][]string{
		`echo $A_TOKEN "$B" ${C} ${D:-x} ${#E} ${!F}`: {"A_TOKEN", "B", "C", "D", "E", "F"},
		`echo '$A' \$B "\$C" $'$D\'$E' $1 $$ $@ $$F`:  nil,
		`echo "it's $X" 'q'$Y`:                        {"X", "Y"},
		`echo '$unterminated $Z`:                      nil,
		`x=$A_KEY9;y=${B_KEY}z`:                       {"A_KEY9", "B_KEY"},
		`$`:                                           nil,
		`${`:                                          nil,
		`printf '%s' "$'$Q'"`:                         {"Q"},
	} {
		var got []string
		for _, r := range shellEnvReads(line) {
			got = append(got, r.name)
			if line[r.off] != '$' {
				t.Errorf("%q: %s at %d, not a $", line, r.name, r.off)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
}

func TestSecretLooking(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "AWS_SECRET_ACCESS_KEY": true, "npm_token": true, "APP_SECRET": true,
		"DOCKER_SECRETS": true, "DB_PASSWORD": true, "PGPASSWORD": true, "MYSQL_PASSWD": true, "TOKEN": true,
		"HOME": false, "KEYBOARD": false, "TOKENIZER": false, "PATH": false, "KITSOKI_APP_DIR": false, "SSH_AUTH_SOCK": false,
	} {
		if got := secretLooking(name); got != want {
			t.Errorf("secretLooking(%q) = %v", name, got)
		}
	}
}

// FuzzShellEnvReads: every read is at a $ and names a shell variable, in
// order; on a line without quotes or backslashes the reads are exactly the
// $NAME / ${NAME / ${#NAME / ${!NAME a regular expression finds.
func FuzzShellEnvReads(f *testing.F) {
	for _, s := range []string{`echo $A_TOKEN "${B:-x}" '$C'`, `\$X $'$Y' ${#Z} ${!W}`, `$1$$ab$_c`, `"'"$Q"'"`, "${"} {
		f.Add(s)
	}
	name := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	ref := regexp.MustCompile(`\$\$|\$(?:\{[#!]?)?([A-Za-z_][A-Za-z0-9_]*)`)
	f.Fuzz(func(t *testing.T, s string) {
		reads := shellEnvReads(s)
		last := -1
		for _, r := range reads {
			if r.off <= last || r.off >= len(s) || s[r.off] != '$' || !name.MatchString(r.name) || !strings.Contains(s[r.off:], r.name) {
				t.Fatalf("%q: read %+v after offset %d", s, r, last)
			}
			last = r.off
		}
		if strings.ContainsAny(s, `'"\`) {
			return
		}
		var want []envRead
		for _, m := range ref.FindAllStringSubmatchIndex(s, -1) {
			if m[2] >= 0 {
				want = append(want, envRead{s[m[2]:m[3]], m[0]})
			}
		}
		if !slices.Equal(reads, want) {
			t.Fatalf("%q: %+v, want %+v", s, reads, want)
		}
	})
}

// A shell line reading many secrets is one finding naming the first few:
// a finding's position is a pass over the scalar, so one a name made a
// line of 8,000 names cost a minute of CPU.
func TestHostRunSecretEnvOneFindingAField(t *testing.T) {
	names := make([]string, 5000)
	for i := range names {
		names[i] = fmt.Sprintf("$N%d_TOKEN", i)
	}
	src := "app: {id: many}\nroot: s\nstates:\n  s:\n    terminal: true\n    on_enter:\n      - invoke: host.run\n" +
		"        with: {cmd: \"" + strings.Join(names, " ") + "\"}\n"
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{LookupEnv: noEnv})
	var got []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == ruleHostRunSecretEnv.ID {
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0].Line != 8 || got[0].Col != 22 ||
		!strings.Contains(got[0].Message, "reads $N0_TOKEN, $N1_TOKEN, $N2_TOKEN, $N3_TOKEN, $N4_TOKEN, $N5_TOKEN, $N6_TOKEN, $N7_TOKEN and more, which") {
		t.Fatalf("want one finding at the first read naming eight: %v", got)
	}
}
