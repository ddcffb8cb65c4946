package flowtest

import (
	"context"

	"kitsoki/pkg/host"
)

// chatOps are the existing engine's built-in chat handlers. kitsoki has no
// chat store, and neither has the existing engine's flow runner: under
// host_bindings each of its handlers answers every call with a domain
// error (Result.Error, so the turn's view is rendered before last_error
// is set and on_error is taken), arguments unread (conformance
// chat-store-absent, found walking its llm-guide §11).
var chatOps = []string{"host.chat.resolve", "host.chat.list", "host.chat.transcript", "host.chat.fork", "host.chat.archive"}

// registerChatStoreAbsent registers upstream's answer for each chat
// handler (a fixture's stubs, registered later, replace it).
func registerChatStoreAbsent(reg *host.Registry) {
	for _, name := range chatOps {
		msg := name + ": no chat store wired"
		reg.Register(name, host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
			return host.Result{Error: msg}, nil
		}))
	}
}
