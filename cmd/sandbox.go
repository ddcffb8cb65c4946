package cmd

import (
	"os"

	"kitsoki/pkg/plugin"
)

// refuseInSandbox refuses a command that runs the repository's code when
// KITSOKI_SANDBOX is on. command is the subcommand as typed after "kitsoki"
// ("run", "eval run"): the error printer adds the "kitsoki: " prefix once.
func refuseInSandbox(command string) error {
	on, err := plugin.SandboxMode(false, os.Getenv(plugin.SandboxEnv))
	if err != nil {
		return usagef("%v", err)
	}
	if !on {
		return nil
	}
	return usagef("refusing %s: it runs the repository's code (host.run, plugins, hooks), and %s is set: this job is for untrusted code; use kitsoki validate and kitsoki test --sandbox, or unset %s on trusted code (see SECURITY.md)", command, plugin.SandboxEnv, plugin.SandboxEnv)
}
