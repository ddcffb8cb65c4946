package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleHostRunSecretEnv = &Rule{ID: "host-run-secret-env", Severity: diag.Warning, LintOnly: true,
	Summary: "a host.run whose shell line (cmd: with no args: or shell: true, or the script of cmd: bash, args: [-c, SCRIPT]) reads a secret-looking environment variable ($GITHUB_TOKEN, ${AWS_SECRET_ACCESS_KEY}: a name ending _TOKEN, _KEY, _SECRET or _SECRETS, or holding PASSWORD or PASSWD) that the call's env: does not set: the command inherits kitsoki's environment, so in a CI job it reads the job's secret, and a story from a pull request can send it anywhere. Review such a call; set the variable in env: (\"\" to blank it) when the command must not see the job's value. A $NAME in single quotes or after a backslash is not a read; an env: that is a template is not checked",
	Example: "- invoke: host.run\n  with: {cmd: \"curl -H \\\"Authorization: $GITHUB_TOKEN\\\" https://x\"}"}

// checkHostRunSecretEnv warns at each secret-looking $NAME a host.run's
// shell line reads and its env: does not set (ruleHostRunSecretEnv).
func checkHostRunSecretEnv(c *checker) {
	if c.expanded {
		return // the unexpanded check saw the same calls
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.run" || e.With == nil || site.Inline {
			return
		}
		set, known := runEnvNames(e.With["env"])
		if !known {
			return
		}
		for _, sc := range runShellScalars(e.With) {
			var names []string
			first := -1
			for _, r := range shellEnvReads(sc.text) {
				if set[r.name] || !secretLooking(r.name) || slices.Contains(names, r.name) {
					continue
				}
				if first < 0 {
					first = r.off
				}
				if names = append(names, r.name); len(names) > maxSecretNames {
					break
				}
			}
			if first < 0 {
				continue
			}
			// one finding a field, at its first read: a position costs a
			// pass over the scalar, and a line of many names would cost
			// that pass once per name
			line, col := lineCol(sc.text, first)
			c.rep.WarnAt(c.src.valuePos(e.WithPos(sc.field), sc.text, line, col), site.Place(), ruleHostRunSecretEnv, "%s: host.run's %s reads %s, which its env: does not set: the command inherits kitsoki's environment, so in a CI job it reads the job's %s, and a story from a pull request can send %s anywhere; if the command needs %s, review the call and silence this with # kitsoki:ignore %s; if not, set %s in env: (env: {%s: \"\"})", site.String(), sc.field, secretList(names), plural(names, "secret", "secrets"), plural(names, "it", "them"), plural(names, "it", "them"), ruleHostRunSecretEnv.ID, plural(names, "it", "each"), names[0])
		}
	})
}

// maxSecretNames is how many of a field's secret reads its finding names.
const maxSecretNames = 8

// secretList names the reads of a finding: "$A", "$A and $B", "$A, $B and
// $C", past maxSecretNames "..., $H and more".
func secretList(names []string) string {
	more := len(names) > maxSecretNames
	if more {
		names = names[:maxSecretNames]
	}
	vs := make([]string, len(names))
	for i, n := range names {
		vs[i] = "$" + n
	}
	switch {
	case more:
		return strings.Join(vs, ", ") + " and more"
	case len(vs) == 1:
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " and " + vs[len(vs)-1]
}

// plural is one when names holds one name, else many.
func plural(names []string, one, many string) string {
	if len(names) == 1 {
		return one
	}
	return many
}

// runEnvNames is the set of variables a host.run's env: sets; known is
// false when env: is not a literal mapping (a template may set anything).
func runEnvNames(env any) (set map[string]bool, known bool) {
	switch m := env.(type) {
	case nil:
		return nil, true
	case map[string]any:
		set = make(map[string]bool, len(m))
		for k := range m {
			set[k] = true
		}
		return set, true
	}
	return nil, false
}

// envRead is one $NAME or ${NAME...} a shell line expands, at byte off
// (its $).
type envRead struct {
	name string
	off  int
}

// shellEnvReads lists the parameter expansions of a shell line: $NAME,
// ${NAME}, ${NAME:-x}, ${#NAME}, ${!NAME}, in double quotes or bare;
// never inside single quotes ('$X'), after a backslash (\$X), in a
// $'...' string or after $$ (the pid: $$X is the pid, then X). It reads the line as text, not as shell: a here-document
// with a quoted delimiter still counts.
func shellEnvReads(s string) []envRead {
	var out []envRead
	double := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '\\':
			i++
		case ch == '"':
			double = !double
		case ch == '\'' && !double:
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return out
			}
			i += end + 1
		case ch == '$' && i+1 < len(s):
			if s[i+1] == '\'' && !double { // $'...': ANSI-C quoting
				i++
				for i++; i < len(s) && s[i] != '\''; i++ {
					if s[i] == '\\' {
						i++
					}
				}
				continue
			}
			if s[i+1] == '$' { // $$, the shell's pid
				i++
				continue
			}
			start := i + 1
			if s[start] == '{' {
				start++
				if start < len(s) && (s[start] == '#' || s[start] == '!') {
					start++
				}
			}
			end := start
			for end < len(s) && isEnvNameByte(s[end], end == start) {
				end++
			}
			if end > start {
				out = append(out, envRead{s[start:end], i})
				i = end - 1
			}
		}
	}
	return out
}

// isEnvNameByte reports whether b can be in a shell variable's name
// (first: at its start).
func isEnvNameByte(b byte, first bool) bool {
	return b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || !first && b >= '0' && b <= '9'
}

// secretLooking reports whether an environment variable's name reads as a
// credential's.
func secretLooking(name string) bool {
	u := strings.ToUpper(name)
	for _, suf := range []string{"_TOKEN", "_KEY", "_SECRET", "_SECRETS"} {
		if strings.HasSuffix(u, suf) {
			return true
		}
	}
	return u == "TOKEN" || u == "SECRET" || strings.Contains(u, "PASSWORD") || strings.Contains(u, "PASSWD")
}
