package host

import "context"

// HandlerCypilotArtifacts is upstream's cypilot (cpt) artifact backend.
const HandlerCypilotArtifacts = "host.cypilot_artifacts"

// cypilotHandler serves host.cypilot_artifacts as upstream answers it
// without the cpt CLI: op is required, then the CLI's absence whatever
// the op (conformance builtins-cli-absent). With cpt installed kitsoki
// runs nothing (docs/compat/hosts.md).
type cypilotHandler struct{ look lookPathFunc }

func (h cypilotHandler) Call(ctx context.Context, c *Call) (Result, error) {
	op := opArg(c)
	if op == "" {
		return domainErr("%s: op argument is required", HandlerCypilotArtifacts), nil
	}
	if !cliPresent(h.look, "cpt") {
		return domainErr("%s: cpt CLI not available — install cypilot from https://github.com/Acronis/cypilot or run from a checkout that has it on PATH", HandlerCypilotArtifacts), nil
	}
	return notDriven(HandlerCypilotArtifacts, "cpt", "op "+op), nil
}
