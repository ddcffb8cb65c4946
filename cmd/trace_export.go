package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/human"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/trace"
)

func newTraceToCassetteCmd(o *traceOpts) *cobra.Command {
	var outPath string
	c := &cobra.Command{
		Use:     "to-cassette PATH -o FILE",
		Short:   "Write a recorded run's agent calls as a cassette for kitsoki run --cassette",
		Example: "  kitsoki trace to-cassette .kitsoki/sessions/20261130T113926Z-ci-triage-97a8.jsonl -o triage.cassette.yaml\n  kitsoki run examples/ci-triage --cassette triage.cassette.yaml",
		Long: `Write the agent calls of a recorded run as a host_cassette: one episode per call,
in call order, with the recorded submission (or error), model, duration, tokens,
cost and prompt. Replaying the story with 'kitsoki run --cassette FILE' and the
same inputs then reaches the same states and world offline. -o - writes to
standard output.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if outPath == "" {
				return usagef("to-cassette: -o FILE is required (use -o - for standard output)")
			}
			in, err := o.openTrace(c, args[0])
			if err != nil {
				return err
			}
			defer in.Close()
			var res trace.CassetteResult
			err = writeOutput(c, outPath, in.path, func(w io.Writer) error {
				var err error
				res, err = trace.ToCassette(in.r, in.name, w, trace.CassetteOptions{TracePath: in.path, Source: in.name})
				return err
			})
			if err != nil {
				return err
			}
			for _, s := range res.Skipped {
				fmt.Fprintf(c.ErrOrStderr(), "kitsoki: skipped %s\n", termsafe.Printable(s))
			}
			if outPath != "-" {
				fmt.Fprintf(c.OutOrStdout(), "wrote cassette %s (%d %s)\n", outPath, res.Episodes, human.Plural(res.Episodes, "episode", "episodes"))
			}
			return nil
		},
	}
	c.Flags().StringVarP(&outPath, "output", "o", "", "cassette file to write (- for standard output)")
	return c
}

func newTraceExportCmd(o *traceOpts) *cobra.Command {
	var format, outPath string
	var content bool
	c := &cobra.Command{
		Use:   "export --format otlp-json PATH",
		Short: "Export a trace as OpenTelemetry spans (OTLP/JSON)",
		Long: `Export a trace as OpenTelemetry spans in OTLP/JSON, the body a collector accepts
on POST /v1/traces: one span for the run, one per agent call and one per host
call, with the GenAI semantic-convention attributes (gen_ai.operation.name,
gen_ai.request.model, gen_ai.usage.input_tokens, gen_ai.usage.output_tokens, ...).
Prompts and answers are left out unless --content is given.`,
		Example: `  kitsoki trace export --format otlp-json run.jsonl > spans.json
  curl -H 'Content-Type: application/json' --data @spans.json http://localhost:4318/v1/traces`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if format != "otlp-json" {
				return usagef("export: --format %q is not supported; use --format otlp-json", format)
			}
			in, err := o.openTrace(c, args[0])
			if err != nil {
				return err
			}
			defer in.Close()
			return writeOutput(c, outPath, in.path, func(w io.Writer) error {
				jw := &jsonWriter{w: w}
				if err := trace.ExportOTLP(in.r, in.name, jw, trace.OTLPOptions{ServiceVersion: version, Content: content, TracePath: in.path}); err != nil {
					return err
				}
				return jw.Flush()
			})
		},
	}
	c.Flags().StringVar(&format, "format", "otlp-json", "output format (otlp-json)")
	c.Flags().StringVarP(&outPath, "output", "o", "-", "file to write (- for standard output)")
	c.Flags().BoolVar(&content, "content", false, "also export prompts, system prompts and answers (gen_ai.input.messages, gen_ai.system_instructions, gen_ai.output.messages; each cut at 64 KiB): opt-in, since they may hold what the run saw")
	return c
}

// writeOutput runs write against stdout ("-") or atomically to a file,
// refusing to write over the input in.
func writeOutput(c *cobra.Command, path, in string, write func(io.Writer) error) error {
	if path == "-" || path == "" {
		if err := write(c.OutOrStdout()); err != nil {
			return corruptErr(err)
		}
		return nil
	}
	if err := checkOutputPath(path, in); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm() // replacing a file keeps its mode
	}
	var werr error
	err := atomicfile.WriteFunc(path, mode, func(w io.Writer) error {
		werr = write(w)
		return werr
	})
	switch {
	case werr != nil:
		return corruptErr(werr)
	case err != nil:
		return usagef("-o %s: %v", path, err)
	}
	return nil
}

// checkOutputPath refuses, before any work is done, an output path that
// cannot be written: a directory, a missing parent directory, or the input.
func checkOutputPath(path, in string) error {
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return usagef("-o %s: is a directory; name a file, e.g. -o %s", path, filepath.Join(path, "out"))
		}
		if in != "" {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				return usagef("-o %s: is the input file; write to another file", path)
			}
		}
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("-o %s: directory %s does not exist; create it first", path, dir)
	case err != nil:
		return usagef("-o %s: %v", path, atomicfile.Cause(err))
	case !st.IsDir():
		return usagef("-o %s: %s is not a directory", path, dir)
	}
	return checkOutInside("-o", path)
}
