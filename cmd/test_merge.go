package cmd

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"kitsoki/pkg/coverage"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/testmerge"
	"kitsoki/pkg/testrun"
)

func newTestMergeCmd() *cobra.Command {
	var jsonOut, junitOut string
	cf := &coverFlags{}
	c := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Merge the --json reports and the JSON coverage profiles of kitsoki test shards",
		Example: "  kitsoki test merge shard1.json shard2.json shard3.json --junit all.xml\n" +
			"  kitsoki test merge cover1.json cover2.json --coverprofile coverage.lcov",
		Long: `Merge concatenates the --json reports of test shards (in the order given) and
sums their counts. The merged report goes to --json FILE (default stdout);
--junit FILE also writes it as JUnit XML (--junit - writes only the JUnit
report, to stdout).

JSON coverage profiles (kitsoki test --coverprofile FILE --cover-format json)
given among the files are added up: every part's counts summed, byte for
byte the profile one unsharded run writes. The merged profile goes to
--coverprofile FILE in --cover-format (default stdout as JSON when no report
is merged), --cover-html DIR writes the HTML report, and the summary line
goes to stderr. LCOV and Cobertura profiles cannot be merged exactly (a
line's count hides which part it counts): write shard profiles as JSON.

Exit status: 0 every merged fixture passed, 1 one failed, 2 a file that
cannot be read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := cf.check(); err != nil {
				return err
			}
			if err := checkOutInside("--json", jsonOut, "--junit", junitOut); err != nil {
				return err
			}
			if err := testrun.OneStdout("--json", jsonOut, "--junit", junitOut); err != nil {
				return usagef("%v", err)
			}
			in, err := testmerge.Read(args)
			if err != nil {
				return usagef("%v", err)
			}
			if len(in.Profiles) > 0 && cf.profile == "" && cf.html == "" {
				if len(in.Reports) > 0 {
					return usagef("coverage profiles and test reports were given: name where the merged profile goes with --coverprofile FILE (the report goes to --json)")
				}
				cf.profile = "-"
			}
			if len(in.Profiles) > 0 {
				// the profiles are whatever files were given: their pages
				// show sources inside the working directory only
				wd, err := os.Getwd()
				if err != nil {
					return usagef("%v", err)
				}
				if err := writeCover(c.OutOrStdout(), c.ErrOrStderr(), cf, coverage.Merge(in.Profiles...), nil, coverage.HTMLOptions{Root: wd}); err != nil {
					return err
				}
			}
			if len(in.Reports) == 0 {
				return nil
			}
			return writeMergedReports(c.OutOrStdout(), in.Report(), jsonOut, junitOut)
		},
	}
	c.Flags().StringVar(&jsonOut, "json", "", "write the merged report to `FILE` (default stdout)")
	c.Flags().StringVar(&junitOut, "junit", "", "also write the merged report as JUnit XML to `FILE` (- for stdout, instead of the JSON)")
	cf.add(c, false)
	return c
}

// writeMergedReports writes the merged --json report (stdout by default,
// unless --junit is -) and --junit; exit 1 when a merged fixture failed.
func writeMergedReports(stdout io.Writer, m *flowtest.Report, jsonOut, junitOut string) error {
	marshal := func() ([]byte, error) { return flowtest.MarshalReport(m) }
	junit := func(w io.Writer) error { return flowtest.WriteJUnitReport(w, m) }
	if jsonOut == "" && junitOut != "-" {
		jsonOut = "-"
	}
	if err := testrun.WriteFiles(stdout, jsonOut, junitOut, marshal, junit); err != nil {
		return usagef("%v", err)
	}
	if m.Failed > 0 {
		return silentExit(exitFinding)
	}
	return nil
}
