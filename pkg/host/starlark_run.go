package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/host/scriptiface"
	"kitsoki/pkg/story"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.starlark.net/lib/json"
	"go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// StarlarkOptions configures host.starlark.run.
type StarlarkOptions struct {
	// HTTPCassette answers ctx.http (flows: starlark_http_cassette). When
	// set, no request reaches the network.
	HTTPCassette *HTTPCassette
	// Inspect answers ctx.fs / ctx.probe first (starlark_inspect_cassette).
	Inspect *InspectCassette
	// HTTPClient makes real requests when there is no cassette (nil = a
	// client with a 30s timeout). NoNetwork refuses them instead.
	HTTPClient *http.Client
	NoNetwork  bool
	// MaxSteps bounds a script's execution steps (0 = defaultStarlarkSteps).
	MaxSteps uint64
	// bigBytes replaces maxBigBytes (0 = maxBigBytes): a test that fills
	// the budget list element by element does it in a smaller one.
	bigBytes int64
	// heapLimit replaces heapLimit (0 = heapLimit): a test reaches a
	// smaller one sooner.
	heapLimit uint64
	// walkLimit replaces maxWalk (0 = maxWalk): a test proves a refusal
	// of a shared value's walk at a smaller count, in milliseconds.
	walkLimit int
	// valueLimit replaces maxValueBytes for the checked operations and
	// the values a script hands out (0 = maxValueBytes): a test passes it
	// without building 64 MiB values.
	valueLimit int64
	// checked is the file roots' test hook (fileRoot.checked): it swaps
	// a directory for a link between a path's check and its use.
	checked func(abs string)
}

// defaultStarlarkSteps is the default execution step limit of a script,
// upstream's (conformance star-budget).
const defaultStarlarkSteps = 10_000_000

// Limits on what a script may read.
const (
	maxScript   = 4 << 20
	maxFSRead   = 8 << 20
	maxHTTPBody = 16 << 20
	maxGlob     = 10_000
)

// NewStarlarkRun returns the host.starlark.run handler.
func NewStarlarkRun(o StarlarkOptions) Handler {
	return &starlarkRun{o: o}
}

type starlarkRun struct{ o StarlarkOptions }

// starlarkScript resolves with.script against the story directory and
// refuses one outside it; the directory is opened as the root the script
// and its sidecar are read through (the caller closes it).
func starlarkScript(storyDir, script string, checked func(string)) (string, *fileRoot, error) {
	if strings.TrimSpace(script) == "" {
		return "", nil, errors.New("host.starlark.run: script argument is required")
	}
	base, err := starlarkBase(storyDir)
	if err != nil {
		return "", nil, err
	}
	fr, err := readFileRoot(base, checked)
	if err != nil {
		return "", nil, fmt.Errorf("host.starlark.run: %v", err)
	}
	path, err := fr.confine("host.starlark.run", "script", script)
	if err != nil {
		fr.Close()
		return "", nil, err
	}
	return path, fr, nil
}

// loadScript reads with.script: relative to the story directory, else,
// as upstream, to the working directory confined to the story's
// [story.ProjectRoot]. The error is the first resolution's. The root the
// script was read through comes back for its sidecar (the caller closes
// it).
func loadScript(storyDir, script string, checked func(string)) (string, []byte, *fileRoot, error) {
	path, fr, err := starlarkScript(storyDir, script, checked)
	if err == nil {
		var src []byte
		if src, err = fr.ReadFile(path, maxScript); err == nil {
			return path, src, fr, nil
		}
		fr.Close()
		err = scriptReadErr(path, err)
	}
	if strings.TrimSpace(script) == "" || filepath.IsAbs(script) {
		return "", nil, nil, err
	}
	wd, werr := os.Getwd()
	base, berr := starlarkBase(storyDir)
	if werr != nil || berr != nil {
		return "", nil, nil, err
	}
	root, _ := story.ProjectRoot(base)
	pr, perr := readFileRoot(root, checked)
	if perr != nil {
		return "", nil, nil, err
	}
	alt, cerr := pr.confine("host.starlark.run", "script", filepath.Join(wd, script))
	if cerr != nil {
		pr.Close()
		return "", nil, nil, err
	}
	src, rerr := pr.ReadFile(alt, maxScript)
	if rerr != nil {
		_, serr := pr.Stat(alt)
		pr.Close()
		if serr == nil {
			// it is there but cannot be read: upstream names the path
			// as written
			return "", nil, nil, scriptReadErr(script, rerr)
		}
		return "", nil, nil, err
	}
	return alt, src, pr, nil
}

// scriptReadErr is upstream's text for a script that cannot be read, Go's
// file error on the path it tried: `read script "<p>": open <p>: no such
// file or directory`, `read <p>: is a directory` (conformance
// mutate-star-missing-script).
func scriptReadErr(path string, err error) error {
	why := safefile.ErrText(err)
	op := "open"
	if strings.Contains(why, "is a directory") {
		op = "read"
	}
	text := fmt.Sprintf("host.starlark.run: read script %q: %s %s: %s", path, op, path, why)
	if errors.Is(err, errOutside) { // a link swapped in: a domain error, as the check's
		return wrapText{text, errOutside}
	}
	return errors.New(text)
}

// starlarkBase is the directory scripts and ctx.fs are confined to: the
// story's, else $KITSOKI_APP_DIR, else the process directory.
func starlarkBase(storyDir string) (string, error) {
	base := cmp.Or(storyDir, os.Getenv("KITSOKI_APP_DIR"))
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("host.starlark.run: %v", err)
		}
		base = wd
	}
	return filepath.Abs(base)
}

func (h *starlarkRun) Call(ctx context.Context, c *Call) (Result, error) {
	const name = "host.starlark.run"
	fail := func(format string, a ...any) (Result, error) {
		return domainErr(name+": "+format, a...), nil
	}
	// a script named by anything but a string is missing, as upstream
	// (conformance mutate-star-missing-script)
	script, _ := c.Args["script"].(string)
	path, src, fr, err := loadScript(c.Env.StoryDir, script, h.o.checked)
	if err != nil {
		if errors.Is(err, errOutside) || strings.TrimSpace(script) == "" {
			return domainErr("%v", err), nil
		}
		return Result{}, err
	}
	// the sidecar beside the script, through the same root: a link
	// named <script>.yaml leading out is refused, not followed
	scData, err := fr.ReadFile(path+".yaml", scriptiface.MaxBytes)
	fr.Close()
	if err != nil {
		return Result{}, fmt.Errorf("%s: script %q has no readable sidecar (expected %s): %v", name, script, path+".yaml", safefile.ErrText(err))
	}
	sc, err := scriptiface.Parse(path+".yaml", scData)
	if err != nil {
		return fail("sidecar is malformed: %v", err)
	}
	// inputs that are not a mapping (a list, a string) are none, as
	// upstream reads them (conformance star-values)
	rawIn, ok := c.Args["inputs"].(map[string]any)
	if !ok {
		rawIn = map[string]any{}
	}
	inputs, err := sc.CheckInputs(rawIn)
	if err != nil {
		return fail("%v", err)
	}
	world := map[string]any{}
	maps.Copy(world, c.Env.World)
	if ow, ok := c.Args["world"].(map[string]any); ok {
		maps.Copy(world, ow)
	}
	storyDir, err := starlarkBase(c.Env.StoryDir)
	if err != nil {
		return Result{}, err
	}
	mem := &memBudget{limit: h.o.bigBytes, walkLimit: h.o.walkLimit, valueLimit: h.o.valueLimit}
	sctx := &scriptCtx{o: &h.o, ctx: ctx, storyDir: storyDir, world: world, mem: mem}
	ctxVal, err := sctx.value(inputs)
	if err != nil {
		return fail("starlark: build ctx: convert inputs: %v", err)
	}

	predeclared := starlark.StringDict{"json": json.Module, "math": math.Module, "struct": starlark.NewBuiltin("struct", starlarkstruct.Make)}
	mem.predeclare(predeclared)
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
	thread := &starlark.Thread{Name: name + " " + script, Print: func(*starlark.Thread, string) {}}
	steps := cmp.Or(h.o.MaxSteps, defaultStarlarkSteps)
	modules, err := readFileRoot(storyDir, h.o.checked)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %v", name, err)
	}
	defer modules.Close()
	thread.Load = newModuleLoader(ctx, steps, modules, filepath.Dir(path), opts, predeclared, mem)
	thread.Steps = stepCredit // and the limit with it
	thread.SetMaxExecutionSteps(addSat(steps, stepCredit))
	defer mem.bind(thread)()
	stop := context.AfterFunc(ctx, func() { thread.Cancel("the run was stopped") })
	defer stop()
	defer watchHeap(thread, cmp.Or(h.o.heapLimit, heapLimit))()

	// errors name the script by its absolute path, as upstream's
	// (`starlark: load <path>: <path>:2:5: undefined: x`)
	globals, err := execChecked(opts, mem, thread, path, src, predeclared)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("%s: %v", name, ctx.Err())
		}
		return fail("starlark: load %s: %s", path, scriptErr(err))
	}
	mainFn, ok := globals["main"].(starlark.Callable)
	if !ok {
		return fail("starlark: %s does not define main(ctx)", path)
	}
	ret, err := starlark.Call(thread, mainFn, starlark.Tuple{ctxVal}, nil)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("%s: %v", name, ctx.Err())
		}
		return fail("starlark: main(ctx): %s", scriptErr(err))
	}
	d, ok := ret.(*starlark.Dict)
	if !ok {
		return fail("starlark: main must return a dict, got %s", ret.Type())
	}
	goOut, err := fromStarlark(d, mem)
	if err != nil {
		return fail("starlark: convert outputs: %v", err)
	}
	out := goOut.(map[string]any)
	if err := sc.CheckOutputs(out); err != nil {
		return fail("%v", err)
	}
	exchanges := sctx.exchanges
	if h.o.HTTPCassette != nil {
		exchanges = h.o.HTTPCassette.Log() // the fixture's traffic so far, as upstream
	}
	if len(exchanges) > 0 {
		out["__http_exchanges"] = exchanges
	}
	inspections := sctx.inspections
	if h.o.Inspect != nil {
		inspections = h.o.Inspect.Log() // the fixture's calls so far, as upstream
	}
	if len(inspections) > 0 {
		out["__inspections"] = inspections
	}
	return Result{Data: out}, nil
}

// scriptErr is a script error's message as upstream gives it (EvalError:
// its message, the step limit's `Starlark computation cancelled: too many
// steps` included; syntax errors keep their position).
func scriptErr(err error) string {
	if ee, ok := errors.AsType[*starlark.EvalError](err); ok {
		return ee.Msg
	}
	return err.Error()
}

// execChecked is starlark.ExecFileOptions over checkedProgram: the file's
// + and * go through the memory budget (starlark_budget.go).
func execChecked(opts *syntax.FileOptions, mem *memBudget, th *starlark.Thread, filename string, src []byte, predeclared starlark.StringDict) (starlark.StringDict, error) {
	prog, err := checkedProgram(opts, filename, src, predeclared)
	if err != nil {
		return nil, err
	}
	g, err := prog.Init(th, predeclared)
	if werr := freezeWalk(mem.walkLimit, g); werr != nil { // left unfrozen: the call fails
		return g, cmp.Or(err, werr)
	}
	g.Freeze()
	return g, err
}

var defaultHTTP = &http.Client{Timeout: 30 * time.Second}

// newModuleLoader serves load("lib.star", ...) from .star files inside the
// story directory (paths relative to the loading script's directory, or
// to the story directory when they start with "//"), each loaded once per
// call; a cycle is an error. They are read through modules, the story
// directory's root.
func newModuleLoader(ctx context.Context, steps uint64, modules *fileRoot, scriptDir string, opts *syntax.FileOptions, predeclared starlark.StringDict, mem *memBudget) func(*starlark.Thread, string) (starlark.StringDict, error) {
	type entry struct {
		globals starlark.StringDict
		err     error
		loading bool
	}
	cache := map[string]*entry{}
	storyDir := modules.dir
	var load func(*starlark.Thread, string) (starlark.StringDict, error)
	load = func(th *starlark.Thread, module string) (starlark.StringDict, error) {
		rel := module
		base := scriptDir
		if r, ok := strings.CutPrefix(module, "//"); ok {
			rel, base = r, storyDir
		}
		if !strings.HasSuffix(rel, ".star") {
			return nil, fmt.Errorf("load(%q): only .star files inside the story directory can be loaded", module)
		}
		abs := rel
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(base, rel)
		}
		abs, err := modules.confine("load", "module", abs)
		if err != nil {
			return nil, fmt.Errorf("load(%q): the module is outside the story directory", module)
		}
		if e, ok := cache[abs]; ok {
			if e.loading {
				return nil, fmt.Errorf("load(%q): import cycle", module)
			}
			return e.globals, e.err
		}
		e := &entry{loading: true}
		cache[abs] = e
		src, err := modules.ReadFile(abs, maxScript)
		if err != nil {
			e.err = fmt.Errorf("load(%q): %s", module, safefile.ErrText(err))
		} else {
			// one step budget for the call: the module counts on from
			// the loading thread's steps, and they carry back
			sub := &starlark.Thread{Name: th.Name, Print: th.Print, Load: load, Steps: th.Steps}
			sub.SetMaxExecutionSteps(addSat(steps, stepCredit))
			stop := context.AfterFunc(ctx, func() { sub.Cancel("the run was stopped") })
			restore := mem.bind(sub) // the checks give steps back to sub
			e.globals, e.err = execChecked(opts, mem, sub, module, src, predeclared)
			restore()
			stop()
			th.Steps = sub.Steps
		}
		e.loading = false
		return e.globals, e.err
	}
	return load
}
