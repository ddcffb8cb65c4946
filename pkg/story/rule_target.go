package story

import (
	"errors"
	"fmt"
	"kitsoki/internal/yamlnode"
	"strings"
)

// checkTargets: every transition target, on_error, timeout.target and
// on_complete target resolves; templated targets are skipped (§4.3).
func checkTargets(c *checker) {
	c.eachTransition(func(s *State, in string, a int, t *Transition) {
		p := t.TargetPos
		if p.File == "" {
			p = t.Pos
		}
		c.checkTarget(s, t.Target, p, "")
	})
	for _, s := range c.states() {
		if s.Timeout() != nil && s.Timeout().Target != "" {
			c.checkTarget(s, s.Timeout().Target, s.Timeout().TargetPos, fmt.Sprintf("state %q timeout.target: ", s.Path))
		}
	}
	c.eachEffect(func(e *Effect, site effSite) {
		if site.Template || site.State == nil {
			return
		}
		if e.OnError() != "" {
			c.checkOnError(e, site)
		}
		if e.Target() != "" && site.OnComplete {
			c.checkTarget(site.State, e.Target(), e.keyPos("target"), site.Loc()+": ")
		}
	})
}

func (c *checker) checkTarget(from *State, target string, p Pos, prefix string) {
	t, err := from.Resolve(target)
	if err != nil {
		var te *TargetError
		msg := err.Error()
		if errors.As(err, &te) && te.Msg != "" && prefix == "" {
			msg = fmt.Sprintf("state %q: %s", from.Path, msg)
		}
		if errors.As(err, &te) && te.Msg == "" {
			if prefix != "" {
				msg = fmt.Sprintf("target %q (resolved: %q) does not exist", te.Target, te.Resolved)
			} else {
				msg = fmt.Sprintf("state %q: %s", from.Path, msg)
			}
			if t := strings.TrimSpace(target); strings.HasPrefix(t, "..") && !strings.HasPrefix(t, "../") && t != ".." {
				// "..c" is one segment appended to the path, not "../c"
				if alt, err := from.Resolve("../" + strings.TrimLeft(t, ".")); err == nil && alt.Kind == TargetState {
					msg += fmt.Sprintf("; a parent step is \"../\": did you mean `../%s` (%s)?", strings.TrimLeft(t, "."), alt.Path)
				} else {
					msg += "; a parent step is \"../\" (with the slash)"
				}
			} else if s := yamlnode.Suggest(te.Resolved, c.allPaths()); s != "" {
				msg += fmt.Sprintf("; did you mean `%s`?", s)
			}
		}
		c.rep.errf(p, ruleTarget, "%s%s", prefix, msg)
		return
	}
	if t.Kind == TargetExit {
		if len(c.st.Exits) == 0 {
			if c.st.child {
				return // mapped by the importing parent (checked there)
			}
			c.rep.errf(p, ruleExits, "%stransition target %q (resolved: %q) does not exist (declare the exit under exits:)", prefix, target, target)
			return
		}
		if c.st.Exits[t.Exit] == nil {
			c.rep.errf(p, ruleExits, "%s@exit:%s referenced but not declared in exits:", prefix, t.Exit)
		}
	}
}

func (c *checker) allPaths() []string {
	out := make([]string, 0, len(c.st.byPath))
	for p := range c.st.byPath {
		out = append(out, p)
	}
	return out
}
