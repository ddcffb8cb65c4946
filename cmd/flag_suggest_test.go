package cmd

import (
	"strings"
	"testing"
)

// An unknown long flag names the flag the author likely meant: by spelling,
// else the flags sharing its first word; nothing when none is close.
func TestUnknownFlagSuggests(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"test", "--covr", "."}, "unknown flag: --covr; did you mean --cover?\nrun 'kitsoki test --help' for usage"},
		{[]string{"validate", "--formt=json", "."}, "unknown flag: --formt; did you mean --format?\n"},
		{[]string{"run", "--trace-out", "t.jsonl", "."}, "unknown flag: --trace-out; this command has --trace, --trace-max-mib\n"},
		{[]string{"run", "--colour=never", "."}, "did you mean --color?"},
		{[]string{"run", "--zzz", "."}, "kitsoki: unknown flag: --zzz\nrun 'kitsoki run --help' for usage"},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("kitsoki %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
}

// A flag given without its value says what value it takes: test's --json
// takes a FILE where run's is a switch, so `kitsoki test --json` alone
// must point at `--json -`.
func TestFlagWithoutValueSaysWhatItTakes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"test", ".", "--json"}, "flag needs an argument: --json; it takes a value: --json FILE (write the JSON report (the existing engine's shape) to FILE (- = stdout))\nrun 'kitsoki test --help' for usage"},
		{[]string{"run", ".", "--intent"}, "flag needs an argument: --intent; it takes a value: --intent NAME ("},
		{[]string{"validate", "-f"}, "flag needs an argument: 'f' in -f; it takes a value: --format string (output format: "},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("kitsoki %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
}
