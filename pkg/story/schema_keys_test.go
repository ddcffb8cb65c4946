package story

import (
	"slices"
	"strings"
	"testing"
)

// schemaPlace is one key list and a story with a key in its place.
type schemaPlace struct {
	keys []string
	wrap func(key string) string // a story with key: in the list's place
}

func schemaPlaces() []schemaPlace {
	return []schemaPlace{
		{topKeys, func(k string) string { return k + ":\n" }},
		{appKeys, func(k string) string { return "app:\n  " + k + ":\n" }},
		{intentKeys, func(k string) string { return "intents:\n  i:\n    " + k + ":\n" }},
		{slotKeys, func(k string) string { return "intents:\n  i:\n    slots:\n      s:\n        " + k + ":\n" }},
		{personaKeys, func(k string) string { return "agents:\n  a:\n    " + k + ":\n" }},
		{pluginKeys, func(k string) string { return "agent_plugins:\n  agent.p:\n    " + k + ":\n" }},
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
}

// TestSchemaKeysAreKnown checks that every key the format schema
// publishes (format_schema.go's vocabularies) is one its reader's table
// knows: each is written, empty, in its place, and the load must not call
// it unknown.
func TestSchemaKeysAreKnown(t *testing.T) {
	for _, pl := range schemaPlaces() {
		for _, k := range pl.keys {
			src := pl.wrap(k)
			_, ds := LoadSource("app.yaml", []byte(src), Options{})
			for _, d := range ds {
				if d.Rule == RuleUnknownKey.ID && strings.Contains(d.Message, "unknown key \""+k+"\"") {
					t.Errorf("schema key %q is not known to its reader:\n%s%s", k, src, d.Message)
				}
			}
		}
	}
}

// TestSchemaKeysListTheReaders is the other direction: every key a reader
// takes (the keys its unknown-key message offers) is in the place's list,
// so the editor schema (FormatSchema) never refuses a key the loader reads.
func TestSchemaKeysListTheReaders(t *testing.T) {
	for _, pl := range schemaPlaces() {
		src := pl.wrap("zz_not_a_key")
		_, ds := LoadSource("app.yaml", []byte(src), Options{})
		var offered string
		for _, d := range ds {
			if d.Rule == RuleUnknownKey.ID && strings.Contains(d.Message, `unknown key "zz_not_a_key"`) {
				_, offered, _ = strings.Cut(d.Message, "expected one of ")
			}
		}
		if offered == "" {
			t.Errorf("no unknown-key message listing the keys for:\n%s%v", src, ds)
			continue
		}
		for k := range strings.SplitSeq(offered, ", ") {
			k = strings.Trim(k, "`")
			if !slices.Contains(pl.keys, k) {
				t.Errorf("the reader takes %q but the schema's list lacks it:\n%s", k, src)
			}
		}
	}
}
