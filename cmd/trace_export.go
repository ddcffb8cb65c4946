package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"kitsoki/pkg/trace"
)

func newTraceToCassetteCmd(o *traceOpts) *cobra.Command {
	var outPath string
	c := &cobra.Command{
		Use:   "to-cassette PATH -o FILE",
		Short: "Write a recorded run's agent calls as a cassette for kitsoki run --cassette",
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
			return writeOutput(c, outPath, func(w io.Writer) error {
				res, err := trace.ToCassette(in.r, in.name, w, trace.CassetteOptions{TracePath: in.path, Source: in.name})
				if err != nil {
					return err
				}
				for _, s := range res.Skipped {
					fmt.Fprintf(c.ErrOrStderr(), "kitsoki: skipped %s\n", s)
				}
				if outPath != "-" {
					fmt.Fprintf(c.OutOrStdout(), "wrote cassette %s (%d %s)\n", outPath, res.Episodes, tracePlural(res.Episodes, "episode", "episodes"))
				}
				return nil
			})
		},
	}
	c.Flags().StringVarP(&outPath, "output", "o", "", "cassette file to write (- for standard output)")
	return c
}

func newTraceExportCmd(o *traceOpts) *cobra.Command {
	var format, outPath string
	c := &cobra.Command{
		Use:   "export --format otlp-json PATH",
		Short: "Export a trace as OpenTelemetry spans (OTLP/JSON)",
		Long: `Export a trace as OpenTelemetry spans in OTLP/JSON, the body a collector accepts
on POST /v1/traces: one span for the run, one per agent call and one per host
call, with the GenAI semantic-convention attributes (gen_ai.operation.name,
gen_ai.request.model, gen_ai.usage.input_tokens, gen_ai.usage.output_tokens, ...).`,
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
			return writeOutput(c, outPath, func(w io.Writer) error {
				return trace.ExportOTLP(in.r, in.name, w, trace.OTLPOptions{ServiceVersion: version})
			})
		},
	}
	c.Flags().StringVar(&format, "format", "otlp-json", "output format (otlp-json)")
	c.Flags().StringVarP(&outPath, "output", "o", "-", "file to write (- for standard output)")
	return c
}

// writeOutput runs write against stdout ("-") or a file written through a
// temporary file in the same directory, so a failed export leaves no
// half-written file behind.
func writeOutput(c *cobra.Command, path string, write func(io.Writer) error) error {
	if path == "-" || path == "" {
		if err := write(c.OutOrStdout()); err != nil {
			return corruptErr(err)
		}
		return nil
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return usagef("write %s: %v", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return corruptErr(err)
	}
	if err := tmp.Close(); err != nil {
		return usagef("write %s: %v", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return usagef("write %s: %v", path, err)
	}
	return nil
}
