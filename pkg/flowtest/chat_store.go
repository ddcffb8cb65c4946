package flowtest

import (
	"context"

	"kitsoki/pkg/host"
)

// chatOps are upstream's built-in chat handlers (story-runtime §2.8),
// which its flow runner answers with a domain error, having no chat store
// (conformance chat-store-absent, chat-store-absent-more).
var chatOps = []string{"host.chat.resolve", "host.chat.list", "host.chat.transcript", "host.chat.fork", "host.chat.archive",
	"host.chat.create", "host.chat.rename", "host.chat.suggest_title", "host.chat.resolve_ref", "host.chat.drive"}

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
