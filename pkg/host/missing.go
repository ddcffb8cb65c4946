package host

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// agentVerbs are the host.agent.<verb> calls the engine routes to its
// agent layer before the registry (host.agent.search is a registry
// handler).
var agentVerbs = []string{"ask", "ask_with_mcp", "converse", "decide", "extract", "task"}

// IsAgentVerb reports whether name is an engine-routed agent verb.
func IsAgentVerb(name string) bool {
	v, ok := strings.CutPrefix(name, "host.agent.")
	return ok && slices.Contains(agentVerbs, v)
}

// MissingError names every story call that no handler serves.
type MissingError struct {
	Handlers []string // sorted, distinct
}

func (e *MissingError) Error() string {
	var b strings.Builder
	if len(e.Handlers) == 1 {
		fmt.Fprintf(&b, "no host handler serves %s", e.Handlers[0])
	} else {
		fmt.Fprintf(&b, "no host handler serves %d of the story's calls: %s", len(e.Handlers), strings.Join(e.Handlers, ", "))
	}
	var ns []string
	seen := map[string]bool{}
	for _, h := range e.Handlers {
		if n := namespaceOf(h); !seen[n] {
			seen[n] = true
			ns = append(ns, n)
		}
	}
	fmt.Fprintf(&b, "; serve %s with a host provider (a manifest under .kitsoki/plugins/<dir>/manifest.yaml with hosts: [%s])", pronoun(len(e.Handlers)), strings.Join(ns, ", "))
	b.WriteString(", or answer the calls from a recording with --host-cassette FILE; `kitsoki plugins` lists the handlers available")
	return b.String()
}

// namespaceOf is host.<ns> of a handler name.
func namespaceOf(h string) string {
	parts := strings.SplitN(h, ".", 3)
	if len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return h
}

// Missing returns a *MissingError naming the handlers (the story's invoke
// names after host_interfaces rewriting) that reg cannot serve by exact
// name or dotted prefix, or nil. Engine-routed agent verbs and the names
// for which served returns true (a host cassette, say; nil = none) are
// not looked up.
func Missing(reg *Registry, handlers []string, served func(string) bool) error {
	seen := map[string]bool{}
	var miss []string
	for _, h := range handlers {
		if seen[h] || IsAgentVerb(h) || (served != nil && served(h)) {
			continue
		}
		seen[h] = true
		if reg != nil {
			if _, _, _, ok := reg.Lookup(h); ok {
				continue
			}
		}
		miss = append(miss, h)
	}
	if len(miss) == 0 {
		return nil
	}
	sort.Strings(miss)
	return &MissingError{Handlers: miss}
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
