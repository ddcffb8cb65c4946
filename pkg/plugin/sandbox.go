package plugin

import (
	"fmt"

	"kitsoki/internal/envflag"
)

// SandboxEnv turns --sandbox on from the environment (a CI job's setting).
const SandboxEnv = "KITSOKI_SANDBOX"

// SandboxMode is --sandbox (flag) or the value of SandboxEnv: 1/true/yes/on
// turn it on, 0/false/no/off or empty leave the flag's choice; any other
// value is an error rather than a guess.
func SandboxMode(flag bool, env string) (bool, error) {
	on, ok := envflag.Parse(env)
	if !ok {
		return false, fmt.Errorf("%s=%q: expected 1 (sandbox on) or 0", SandboxEnv, env)
	}
	return on || flag, nil
}

// NotStarted are the external plugins Options.Sandbox kept from starting,
// in id order (a plugin the profile disabled is not among them).
func (a *Assembly) NotStarted() []PluginStatus {
	var out []PluginStatus
	for _, p := range a.Plugins {
		if p.Reason == SandboxReason {
			out = append(out, p)
		}
	}
	return out
}
