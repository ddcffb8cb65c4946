package termsafe

import "testing"

// ShellWord leaves a plain word alone and quotes anything a shell would
// read otherwise, an embedded quote included.
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"examples/ci-triage": "examples/ci-triage",
		"--limit-rate=10M":   "--limit-rate=10M",
		"":                   "''",
		"a b":                "'a b'",
		"it's":               `'it'\''s'`,
		"hi!":                "'hi!'",
		"$HOME":              "'$HOME'",
		"café":               "'café'",
	} {
		if got := ShellWord(in); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", in, got, want)
		}
	}
}
