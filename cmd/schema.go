package cmd

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"kitsoki/pkg/story"
)

func init() { registry = append(registry, newSchemaCmd) }

func newSchemaCmd() *cobra.Command {
	c := &cobra.Command{
		Use:     "schema",
		Short:   "Print JSON Schemas of kitsoki's formats (for editors' YAML language servers) and outputs",
		Example: "  kitsoki schema app > .vscode/kitsoki-app.schema.json\n  kitsoki schema run > run.schema.json",
	}
	c.AddCommand(&cobra.Command{
		Use:     "app",
		Short:   "Print a JSON Schema of the story format (app.yaml and rooms/*.yaml)",
		Example: "  kitsoki schema app > .vscode/kitsoki-app.schema.json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			b, err := json.MarshalIndent(story.FormatSchema(), "", "  ")
			if err != nil {
				return err
			}
			_, err = c.OutOrStdout().Write(append(b, '\n'))
			return err
		},
	})
	c.AddCommand(&cobra.Command{
		Use:     "run",
		Short:   "Print the JSON Schema of the kitsoki run --json output",
		Example: "  kitsoki schema run > run.schema.json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, err := c.OutOrStdout().Write(runSchema)
			return err
		},
	})
	return c
}
