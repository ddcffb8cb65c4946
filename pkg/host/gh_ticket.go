package host

import "context"

// HandlerGHTicket is upstream's GitHub-issues backend of a ticket iface.
const HandlerGHTicket = "host.gh.ticket"

// ghTicketHandler serves host.gh.ticket as upstream answers it without the
// gh CLI: op is required, then the CLI's absence is the answer whatever
// the op (conformance builtins-cli-absent). With gh installed, kitsoki
// still runs nothing: gh reaches GitHub, which a run here must not do
// behind the story's back (docs/compat/hosts.md).
type ghTicketHandler struct{ look lookPathFunc }

func (h ghTicketHandler) Call(ctx context.Context, c *Call) (Result, error) {
	op := opArg(c)
	if op == "" {
		return domainErr("%s: op argument is required", HandlerGHTicket), nil
	}
	if !cliPresent(h.look, "gh") {
		return domainErr("%s: gh CLI not available — install github.com/cli/cli and run `gh auth login`", HandlerGHTicket), nil
	}
	return notDriven(HandlerGHTicket, "gh", "op "+op), nil
}
