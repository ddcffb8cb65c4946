package flowtest

import "kitsoki/internal/scratchdir"

// WorkDirPrefix begins the name of a temporary working directory of
// fixtures (scratchdir.Make): kitsoki test sweeps the ones a killed run
// left (scratchdir.Sweep).
const WorkDirPrefix = "kitsoki-flow-"

// sharedWorkDir is the working directory the fixtures of one run share
// (remove deletes it): --workdir; else, when a fixture may write files
// (real handlers: host_bindings, a Starlark cassette), a fresh temporary
// directory for the run, as upstream's fixtures all work in its one
// current directory: a file one fixture writes is there for the next
// (its expect_files sees it), and append_to_file's message_id counts on
// (conformance workdir-shared). "" when no fixture may write, and under
// --sandbox, which keeps each untrusted fixture to its own directory.
func (r *Runner) sharedWorkDir(fxs []*Fixture) (dir string, remove func()) {
	if r.opts.WorkDir != "" {
		return r.opts.WorkDir, func() {}
	}
	if r.opts.Sandbox {
		return "", func() {}
	}
	writes := false
	for _, fx := range fxs {
		if len(fx.HostBindings) > 0 || fx.StarlarkHTTPCassette != "" || fx.StarlarkInspectCassette != "" {
			writes = true
		}
	}
	if !writes {
		return "", func() {}
	}
	tmp, remove, err := scratchdir.Make(WorkDirPrefix)
	if err != nil {
		return "", func() {} // each fixture makes its own (and reports why it cannot)
	}
	return tmp, remove
}
