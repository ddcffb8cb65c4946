package testrun

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"kitsoki/internal/scratchdir"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
)

// Plan is what a test run takes from its arguments and flags.
type Plan struct {
	// RunRE is --run compiled (nil: every fixture).
	RunRE *regexp.Regexp
	// Shard and Shards are --shard i/n (0, 0: every fixture).
	Shard, Shards int
	Sandbox       bool
	// Apps are the stories; Glob the fixture glob ("": each story's
	// flows/*.yaml), relative to each story when Rel.
	Apps []string
	Glob string
	Rel  bool
	// Upstream: the `test flows APP` spelling, where a glob matching no
	// file is an error.
	Upstream bool
}

// Fixtures finds the plan's fixtures below root and trees, writes their
// diagnostics to diags (and as workflow annotations to annotations, when
// set), and refuses to run any when one has an error (a *NotRunError). all is every
// fixture found, files the plan's shard of them.
func (p *Plan) Fixtures(root string, trees []string, diags, annotations io.Writer) (all, files []*flowtest.File, err error) {
	all, ds, err := flowtest.DiscoverUnder(root, trees, p.Apps, p.Glob, p.Rel, p.RunRE)
	if err != nil {
		return nil, nil, err
	}
	ds = diag.Sort(flowtest.FilterIgnored(ds, root, trees))
	_ = diag.WriteHuman(diags, ds, diag.HumanOptions{})
	if annotations != nil {
		_ = diag.WriteGitHub(annotations, ds) // fixture warnings and errors as annotations too
	}
	if diag.HasErrors(ds) {
		return nil, nil, &NotRunError{Diags: ds}
	}
	if p.Upstream && len(all) == 0 {
		if m, _ := filepath.Glob(p.Glob); len(m) == 0 {
			return nil, nil, fmt.Errorf("no flow fixtures matched %q", p.Glob)
		}
	}
	files = all
	if p.Shards > 0 {
		files = flowtest.Shard(all, p.Shard, p.Shards)
	}
	return all, files, nil
}

// TraceDirPrefix begins the name of TraceDir's temporary directory
// (scratchdir.Make): kitsoki test sweeps the ones a killed run left.
const TraceDirPrefix = "kitsoki-test-trace-"

// TraceDir is the directory of the fixtures' traces: traceDir (created),
// else a temporary one when traceOut needs one, else ""; cleanup removes
// a temporary one.
func TraceDir(traceDir, traceOut string) (dir string, cleanup func(), err error) {
	cleanup = func() {}
	dir = traceDir
	if traceOut != "" && dir == "" {
		tmp, remove, err := scratchdir.Make(TraceDirPrefix)
		if err != nil {
			return "", cleanup, fmt.Errorf("--trace-out: %v", err)
		}
		cleanup = remove
		dir = tmp
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			cleanup()
			return "", func() {}, fmt.Errorf("--trace-dir: %v", err)
		}
	}
	return dir, cleanup, nil
}

// NoFixtures is the line kitsoki test prints when the plan found no
// fixture to run: where it looked, and how to get one.
func (p *Plan) NoFixtures() string {
	glob := cmp.Or(p.Glob, "flows/*.yaml")
	var where string
	switch {
	case !p.Rel:
		where = glob
	case len(p.Apps) == 1:
		where = filepath.Join(filepath.Dir(p.Apps[0]), glob)
	default:
		where = fmt.Sprintf("<story>/%s in %d stories", glob, len(p.Apps))
	}
	if p.RunRE != nil || p.Shards > 0 {
		return fmt.Sprintf("kitsoki test: no flow fixture to run (looked for %s, then kept those --run or --shard select)", where)
	}
	msg := fmt.Sprintf("kitsoki test: no flow fixtures found (looked for %s)", where)
	if len(p.Apps) == 1 {
		dir := filepath.Dir(p.Apps[0])
		msg += fmt.Sprintf("; record one with `kitsoki run %s --save-fixture %s`", dir, filepath.Join(dir, "flows", "first.yaml"))
	}
	return msg
}
