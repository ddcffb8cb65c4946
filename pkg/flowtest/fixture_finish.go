package flowtest

import (
	"os"
	"path/filepath"
	"slices"

	"kitsoki/internal/recost"
	"kitsoki/internal/safefile"
)

// session is what the session checks read of a session.
type session interface {
	State() string
	World() map[string]any
	Terminal() bool
}

// finish runs the session-level assertions (flow-format.md §3.12) and
// sets the verdict.
func (fr *fixtureRun) finish(s session) {
	fx := fr.fx
	c := &checker{turn: -1, state: s.State(), patterns: fr.patterns()}
	if fx.ExpectTerminal != nil && *fx.ExpectTerminal && !fr.terminal(s, c.state) {
		c.fail(fx.at("expect_terminal"), "expect_terminal: state %q is not terminal", c.state)
	}
	n := len(fr.allEvents)
	if fx.ExpectEventsAtLeast != nil && n < *fx.ExpectEventsAtLeast {
		c.fail(fx.at("expect_events_count_atleast"), "expect_events_count_atleast: got %d events, want >= %d", n, *fx.ExpectEventsAtLeast)
	}
	if fx.ExpectEventsAtMost != nil && n > *fx.ExpectEventsAtMost {
		c.fail(fx.at("expect_events_count_atmost"), "expect_events_count_atmost: got %d events, want <= %d", n, *fx.ExpectEventsAtMost)
	}
	if fx.ExpectNoErrors != nil && *fx.ExpectNoErrors && fr.hadErrors {
		c.fail(fx.at("expect_no_errors"), "expect_no_errors: there were validation errors")
	}
	world := s.World()
	fr.observeFinal(world)
	c.worldKeys("expect_world_final", fx.ExpectWorldFinal, world, false)
	c.noHostCalls(fx.at("expect_no_host_calls"), fx.ExpectNoHostCalls, fr.allEvents, fr.legacy)
	if fx.StrictCassetteCoverage && fr.hc != nil {
		if left := fr.hc.Remaining(); len(left) > 0 {
			c.fail(fx.at("strict_cassette_coverage"), "unexpected remaining episodes: %v", left)
		}
	}
	for _, fe := range fx.ExpectFiles {
		fr.fileCheck(c, fe)
	}
	for i := range c.fails {
		c.fails[i].Events = nil
	}
	if len(c.fails) > 0 {
		// a failed (Passed false) session pseudo-turn
		fr.res.Flow.Turns = append(fr.res.Flow.Turns, &TurnResult{TurnIndex: -1, Failures: messages(c.fails)})
		fr.res.Failures = append(fr.res.Failures, c.fails...)
	}
	fr.res.Flow.Passed = fr.res.Fatal == nil &&
		!slices.ContainsFunc(fr.res.Flow.Turns, func(t *TurnResult) bool { return !t.Passed }) &&
		!slices.ContainsFunc(fr.res.Failures, func(f Failure) bool { return f.Turn == -1 })
}

// terminal: the state's terminal: true, an exit state the story makes, or the
// session's own end.
func (fr *fixtureRun) terminal(s session, state string) bool {
	// as upstream, the state looked up by path: an __exit__ state the
	// story makes is terminal, any other __exit__ name is no state
	// (conformance exit-state-terminal)
	if s.Terminal() || fr.m.ExitState(state) {
		return true
	}
	st, ok := fr.m.States[state]
	return ok && st.Terminal
}

func (fr *fixtureRun) fileCheck(c *checker, fe FileExpect) {
	// a file outside the project root is never looked at
	p, err := fr.resolve("expect_files", fe.Path)
	if err != nil {
		c.fail(fe.Pos, "%v", err)
		return
	}
	p, root := fr.written(p)
	r := safefile.NewRoot(root)
	defer r.Close()
	// read through the root its path was confined to: a link a handler
	// swapped in on the way since is refused, never followed out
	st, err := r.Stat(p)
	exists := err == nil && !st.IsDir()
	if fe.MustNotExist {
		if exists {
			c.fail(fe.Pos, "expect_files[%s]: must_not_exist but file is present", fe.Path)
		}
		return
	}
	if !exists {
		// as upstream: the path joined to the fixture's directory as the
		// run named it (relative when the story was named relative)
		shown := fe.Path
		if !filepath.IsAbs(shown) {
			shown = filepath.Join(filepath.Dir(fr.fx.File), shown)
		}
		c.fail(fe.Pos, "expect_files[%s]: file does not exist (resolved: %s)", fe.Path, shown)
		return
	}
	if fe.ContentMatches == "" {
		return
	}
	re, err := c.patterns.Compile(fe.ContentMatches)
	if err != nil {
		c.fail(fe.Pos, "expect_files[%s]: invalid regex %q: %v", fe.Path, fe.ContentMatches, err)
		return
	}
	data, err := readIn(r, p)
	if err != nil {
		c.fail(fe.Pos, "expect_files[%s]: read failed: %v", fe.Path, confinedErr(r, "expect_files", fe.Path, err))
		return
	}
	if err := recost.Check(c.patterns.Insts(fe.ContentMatches), len(data)); err != nil {
		c.fail(fe.Pos, "expect_files[%s]: content_matches: %v", fe.Path, err)
		return
	}
	if !re.Match(data) {
		c.fail(fe.Pos, "expect_files[%s]: content does not match %q", fe.Path, fe.ContentMatches)
	}
}

// written is p as upstream's real handlers would have left it: they write
// under the process's working directory, ours under the fixture's own
// (docs/compat/flowtest.md "Working directory of real handlers"), so a
// p below the story's directory (where upstream's fixtures are run from)
// or the working directory that a handler wrote there is read there, when
// no symlink on its way leads out of the working directory; else p
// (conformance expect-files-written). root is the directory the path
// returned lies in: the working directory, or the fixture's root.
func (fr *fixtureRun) written(p string) (_, root string) {
	if fr.wd == "" {
		return p, fr.root()
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p, fr.root()
	}
	wd := safefile.NewRoot(fr.wd)
	defer wd.Close()
	var bases []string
	if fr.ld != nil && fr.ld.Story != nil {
		bases = append(bases, fr.ld.Story.Dir)
	}
	if cwd, err := os.Getwd(); err == nil {
		bases = append(bases, cwd)
	}
	for _, base := range bases {
		if base, err = filepath.Abs(base); err != nil {
			continue
		}
		rel, err := filepath.Rel(base, abs)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		w := filepath.Join(fr.wd, rel)
		if _, err := wd.Stat(w); err == nil && w != abs {
			return w, fr.wd
		}
	}
	return p, fr.root()
}
