package testrun

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/story"
)

// Outputs are where a test run's results go besides its text: the JSON
// report (the existing engine's shape) and the JUnit one, each a file or
// stdout for -, and the last fixture's trace (TraceOut); "" skips one.
type Outputs struct {
	JSON, JUnit, TraceOut string
	// GitHub adds workflow annotations to the text; Upstream the `test
	// flows` spelling's last two lines.
	GitHub, Upstream bool
}

// Write writes the --json, --junit and --trace-out files of results.
func (o Outputs) Write(stdout io.Writer, results []*flowtest.Result) error {
	marshal := func() ([]byte, error) { return flowtest.MarshalReport(flowtest.NewReport(results)) }
	junit := func(w io.Writer) error { return flowtest.WriteJUnit(w, results) }
	if err := WriteFiles(stdout, o.JSON, o.JUnit, marshal, junit); err != nil {
		return err
	}
	if o.TraceOut == "" {
		return nil
	}
	if err := flowtest.CopyLastTrace(results, OutRoot(), o.TraceOut); err != nil {
		return fmt.Errorf("--trace-out %s: %v", o.TraceOut, err)
	}
	return nil
}

// WriteText prints the results (with annotations first under GitHub, and
// the `test flows` spelling's last two lines under Upstream).
func (o Outputs) WriteText(text io.Writer, results []*flowtest.Result) {
	if o.GitHub {
		flowtest.WriteGitHub(text, results)
	}
	flowtest.WriteText(text, results)
	if o.Upstream {
		flowtest.WriteUpstreamSummary(text, results)
	}
}

// WriteFiles writes the JSON report marshal makes to jsonOut and the
// JUnit one junit writes to junitOut (either to stdout for -); an empty
// name skips that report.
func WriteFiles(stdout io.Writer, jsonOut, junitOut string, marshal func() ([]byte, error), junit func(io.Writer) error) error {
	if jsonOut != "" {
		data, err := marshal()
		if err != nil {
			return fmt.Errorf("--json: %v", err)
		}
		data = termsafe.JSON(data) // C1 and bidi controls from the story, escaped
		if jsonOut == "-" {
			data = append(data, '\n')
		}
		if err := writeFile(stdout, "--json", jsonOut, data); err != nil {
			return err
		}
	}
	if junitOut != "" {
		var b bytes.Buffer
		if err := junit(&b); err != nil {
			return fmt.Errorf("--junit: %v", err)
		}
		return writeFile(stdout, "--junit", junitOut, b.Bytes())
	}
	return nil
}

// writeFile writes data to stdout for -, else atomically to path: through
// the project root above the working directory when path is inside it
// (OutRoot), so a link swapped in on the way while the fixtures ran cannot
// lead the report out.
func writeFile(stdout io.Writer, flag, path string, data []byte) error {
	var err error
	if path == "-" {
		_, err = stdout.Write(data)
	} else {
		err = atomicfile.WriteBelow(OutRoot(), path, data, 0o644)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v", flag, path, err)
	}
	return nil
}

// OneStdout refuses two outputs (flag, path pairs) that both name stdout.
func OneStdout(flagPaths ...string) error {
	var on []string
	for i := 0; i+1 < len(flagPaths); i += 2 {
		if flagPaths[i+1] == "-" {
			on = append(on, flagPaths[i]+" -")
		}
	}
	if len(on) > 1 {
		return fmt.Errorf("%s both want stdout; write one of them to a file", strings.Join(on, " and "))
	}
	return nil
}

// TraceOutDir makes the directory of the --trace-out file traceOut (its
// parents too), as upstream's `test flows` makes it before its first
// fixture runs; inside the project root it is made through the root, so
// a link leading out of it makes nothing there. "" makes nothing.
func TraceOutDir(traceOut string) error {
	if traceOut == "" {
		return nil
	}
	dir := filepath.Dir(traceOut)
	if f := fileInTheWay(dir); f != "" {
		return fmt.Errorf("--trace-out %s: %s is a file, not a directory; name a file in a directory, or move %s away", traceOut, f, f)
	}
	if err := atomicfile.MkdirBelow(OutRoot(), dir); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", pe.Path, pe.Err) // without the operation's name
		}
		return fmt.Errorf("--trace-out %s: cannot create its directory %s: %v; name a file whose directory exists or can be made", traceOut, dir, err)
	}
	return nil
}

// fileInTheWay is the nearest existing one of dir and its parents when
// it is no directory, else "".
func fileInTheWay(dir string) string {
	for p := dir; ; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err == nil {
			if st.IsDir() {
				return ""
			}
			return p
		}
		if filepath.Dir(p) == p {
			return ""
		}
	}
}

// OutRoot is the project root above the working directory: the one an
// output path inside it is confined to (checked before the run by cmd,
// written through by atomicfile.WriteBelow after it).
func OutRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	root, _ := story.ProjectRoot(wd)
	return root
}
