package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A timeout target is looked up as written (conformance clock/child,
// timeout-slash-target): a relative, templated or slash-written one never
// fires, so validate warns; an absolute dotted one loads clean.
func TestTimeoutTargetThatNeverFires(t *testing.T) {
	for target, warn := range map[string]bool{"b": false, "../b": true, `"{{ world.next }}"`: true, "c.c1": false, "c/c1": true} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", `app: {id: tm}
root: a
world: {next: {type: string, default: b}}
intents: {go: {}}
states:
  a:
    timeout: {after: 5m, target: `+target+`}
    on: {go: [{target: b}, {target: c}]}
  b: {}
  c:
    type: compound
    initial: c1
    states: {c1: {}}
`)
		_, ds := Load(dir, story.Options{})
		var got []string
		for _, d := range ds {
			got = append(got, d.String())
		}
		all := strings.Join(got, "\n")
		has := strings.Contains(all, "this timeout never fires")
		if has != warn || len(ds) > 1 {
			t.Errorf("timeout target %s: want warning %v, got:\n%s", target, warn, all)
		}
	}
}

// A timeout.after upstream loads but never fires is warned with what is
// wrong with it: negative, not a number, or more days than a duration
// holds (conformance lint-negative-timeout, timeout-float-days).
func TestNeverTimeoutSaysWhy(t *testing.T) {
	for after, want := range map[string]string{"-5m": "is negative", "-0.5d": "is negative", "NaNd": "is not a number of days", "Infd": "is more days than a duration holds", "200000.5d": "is more days than a duration holds"} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", "app: {id: tm}\nroot: a\nintents: {go: {}}\nstates:\n  a:\n    timeout: {after: \""+after+"\", target: b}\n    on: {go: [{target: b}]}\n  b: {}\n")
		_, ds := Load(dir, story.Options{})
		var got []string
		for _, d := range ds {
			got = append(got, d.String())
		}
		if all := strings.Join(got, "\n"); len(ds) != 1 || !strings.Contains(all, `"`+after+`" `+want+": the timeout never fires") {
			t.Errorf("timeout.after %s: want one warning saying it %s, got:\n%s", after, want, all)
		}
	}
}
