package cmd

import (
	"os"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/pkg/lsp"
)

func init() { register("lsp", newLSPCmd) }

func newLSPCmd() *cobra.Command {
	var debounce time.Duration
	var root string
	c := &cobra.Command{
		Use:   "lsp",
		Short: "Run the kitsoki language server over stdio (diagnostics, definition, hover, completion)",
		Long: `kitsoki lsp is a Language Server Protocol server on stdin/stdout. Editors start it for
YAML files of a story: it publishes the diagnostics of kitsoki validate for every file of
the story on open and on change (unsaved buffers are checked), and answers go to
definition, hover, completion, document symbols and "did you mean" code actions.

It reads, checks and publishes only inside the workspace: --root DIR when given, else the
client's initializationOptions {"root": DIR}, workspace folders or rootUri. A document
outside them (file:///home/me/.ssh/id_rsa) gets nothing read; a client that names no
root gets no document served.

It runs under a soft memory limit of one and a half times what its caps let it keep (128 MiB
of open buffers, the models of 4 MiB of story YAML): 312 MiB. The Go collector then works
harder as the heap nears it, instead of letting the process grow to twice a big live heap;
nothing fails past it. GOMEMLIMIT, when set (a size, or off), is used instead.`,
		Example: "  kitsoki lsp\n  kitsoki lsp --debounce 300ms\n  kitsoki lsp --root .",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx, stop := stopContext(c.Context())
			defer stop()
			opts := lsp.Options{Debounce: debounce, Version: versionString(), Root: root, Stderr: c.ErrOrStderr()}
			lsp.SetMemoryLimit(opts, os.Getenv)
			s := lsp.New(opts)
			return s.Serve(ctx, stdio{})
		},
	}
	c.Flags().DurationVar(&debounce, "debounce", lsp.DefaultDebounce, "re-check a story this long after the last edit")
	c.Flags().StringVar(&root, "root", "", "the one workspace root (default: the client's workspace folders or rootUri)")
	return c
}

// stdio is the process's stdin/stdout as one stream.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	_ = os.Stdin.Close()
	return os.Stdout.Close()
}
