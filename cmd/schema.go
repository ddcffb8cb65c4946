package cmd

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"kitsoki/pkg/coverage"
	"kitsoki/pkg/story"
)

func init() { register("schema", newSchemaCmd) }

func newSchemaCmd() *cobra.Command {
	c := &cobra.Command{
		Use:     "schema",
		Short:   "Print JSON Schemas of kitsoki's formats (for editors' YAML language servers) and outputs",
		Example: "  kitsoki schema app > .vscode/kitsoki-app.schema.json\n  kitsoki schema run > run.schema.json",
	}
	c.AddCommand(
		schemaPrintCmd("app", "Print a JSON Schema of the story format (app.yaml and rooms/*.yaml)",
			"  kitsoki schema app > .vscode/kitsoki-app.schema.json", func() ([]byte, error) {
				b, err := json.MarshalIndent(story.FormatSchema(), "", "  ")
				return append(b, '\n'), err
			}),
		schemaPrintCmd("run", "Print the JSON Schema of the kitsoki run --json output",
			"  kitsoki schema run > run.schema.json", func() ([]byte, error) { return runSchema, nil }),
		schemaPrintCmd("coverage", "Print the JSON Schema of the JSON coverage profile (kitsoki test --coverprofile FILE --cover-format json)",
			"  kitsoki schema coverage > coverage.schema.json", func() ([]byte, error) { return coverage.Schema, nil }),
	)
	return c
}

// schemaPrintCmd is a subcommand that prints the schema doc returns.
func schemaPrintCmd(use, short, example string, doc func() ([]byte, error)) *cobra.Command {
	return &cobra.Command{
		Use:     use,
		Short:   short,
		Example: example,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			b, err := doc()
			if err != nil {
				return err
			}
			_, err = c.OutOrStdout().Write(b)
			return err
		},
	}
}
