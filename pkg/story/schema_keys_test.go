package story

import (
	"strings"
	"testing"
)

// TestSchemaKeysAreKnown checks that every key the format schema
// publishes (format_schema.go's vocabularies) is one its reader's table
// knows: each is written, empty, in its place, and the load must not call
// it unknown.
func TestSchemaKeysAreKnown(t *testing.T) {
	places := []struct {
		keys []string
		wrap func(key string) string // a story with key: in the list's place
	}{
		{topKeys, func(k string) string { return k + ":\n" }},
		{appKeys, func(k string) string { return "app:\n  " + k + ":\n" }},
		{intentKeys, func(k string) string { return "intents:\n  i:\n    " + k + ":\n" }},
		{slotKeys, func(k string) string { return "intents:\n  i:\n    slots:\n      s:\n        " + k + ":\n" }},
		{personaKeys, func(k string) string { return "agents:\n  a:\n    " + k + ":\n" }},
		{pluginKeys, func(k string) string { return "agent_plugins:\n  p:\n    " + k + ":\n" }},
		{providerKeys, func(k string) string { return "providers:\n  p:\n    " + k + ":\n" }},
		{importKeys, func(k string) string { return "imports:\n  m:\n    " + k + ":\n" }},
		{exitKeys, func(k string) string { return "exits:\n  e:\n    " + k + ":\n" }},
		{stateKeys, func(k string) string { return "states:\n  s:\n    " + k + ":\n" }},
		{timeoutKeys, func(k string) string { return "states:\n  s:\n    timeout:\n      " + k + ":\n" }},
		{transitionKeys, func(k string) string { return "states:\n  s:\n    on:\n      go:\n        " + k + ":\n" }},
		{effectKeys, func(k string) string { return "states:\n  s:\n    on_enter:\n      - " + k + ":\n" }},
		{selectionKeys, func(k string) string {
			return "states:\n  s:\n    on_enter:\n      - selection:\n          " + k + ":\n"
		}},
	}
	for _, pl := range places {
		for _, k := range pl.keys {
			src := pl.wrap(k)
			_, ds := LoadBytes("app.yaml", []byte(src), Options{})
			for _, d := range ds {
				if d.Rule == RuleUnknownKey.ID && strings.Contains(d.Message, "unknown key \""+k+"\"") {
					t.Errorf("schema key %q is not known to its reader:\n%s%s", k, src, d.Message)
				}
			}
		}
	}
}
