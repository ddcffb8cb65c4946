package cmd

import "github.com/spf13/cobra"

// completionExamples gives cobra's completion command and each of its shells
// an Examples section, as every other command's help has.
func completionExamples(root *cobra.Command) {
	c, _, err := root.Find([]string{"completion"})
	if err != nil || c == root {
		return
	}
	c.Example = `  kitsoki completion bash > ~/.local/share/bash-completion/completions/kitsoki
  kitsoki completion zsh > "${fpath[1]}/_kitsoki"
  kitsoki completion fish > ~/.config/fish/completions/kitsoki.fish`
	load := map[string]string{
		"bash":       "  kitsoki completion bash > ~/.local/share/bash-completion/completions/kitsoki\n  source <(kitsoki completion bash)   # this shell only",
		"zsh":        "  kitsoki completion zsh > \"${fpath[1]}/_kitsoki\"\n  source <(kitsoki completion zsh)   # this shell only",
		"fish":       "  kitsoki completion fish > ~/.config/fish/completions/kitsoki.fish\n  kitsoki completion fish | source   # this shell only",
		"powershell": "  kitsoki completion powershell | Out-String | Invoke-Expression",
	}
	for _, sh := range c.Commands() {
		sh.Example = load[sh.Name()]
	}
}
