package engine

import (
	"context"
	"fmt"
	"sync"

	"kitsoki/pkg/host"
)

// inboxStore is the run's inbox; it implements host.Inbox.
type inboxStore struct {
	mu    sync.Mutex
	items []InboxItem
	// unread and attention count the items counts reports, kept as they
	// are posted (nothing marks an item read) so that each job's notice
	// does not walk every earlier one
	unread, attention int
}

func (b *inboxStore) post(it InboxItem) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	it.ID = fmt.Sprintf("n%d", len(b.items)+1)
	b.items = append(b.items, it)
	if !it.Read {
		b.unread++
		if it.Severity == "action_required" {
			b.attention++
		}
	}
	return it.ID
}

// Add implements host.Inbox (host.inbox.add). As upstream, a notification's
// kind is not its severity: "checkpoint" and "action_required", exactly as
// written, need attention; any other kind is info (conformance
// inbox-kind-severity).
func (b *inboxStore) Add(ctx context.Context, n host.Notification) (string, error) {
	sev := "info"
	if n.Kind == "checkpoint" || n.Kind == "action_required" {
		sev = "action_required"
	}
	return b.post(InboxItem{Title: n.Title, Body: n.Body, Severity: sev, Thread: n.Thread, State: n.State}), nil
}

func (b *inboxStore) list() []InboxItem {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]InboxItem(nil), b.items...)
}

func (b *inboxStore) counts() (unread, attention int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.unread, b.attention
}
