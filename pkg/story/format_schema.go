package story

import "maps"

// FormatSchema returns a JSON Schema (draft 2020-12) of the story format's
// shape and known keys, from the vocabularies the loader checks, for an
// editor's YAML language server (kitsoki schema app).
func FormatSchema() map[string]any {
	// YAML is loose where JSON is not: an empty key is null, a scalar may be
	// read as a number or a boolean; the schema accepts what the loader does.
	obj := func(keys []string, over map[string]any) map[string]any {
		props := map[string]any{}
		for _, k := range keys {
			props[k] = map[string]any{}
		}
		maps.Copy(props, over)
		return map[string]any{"type": []any{"object", "null"}, "properties": props, "additionalProperties": false}
	}
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/$defs/" + name} }
	mapOf := func(name string) map[string]any {
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": ref(name)}
	}
	listOf := func(name string) map[string]any {
		return map[string]any{"type": []any{"array", "null"}, "items": ref(name)}
	}
	str := map[string]any{"type": []any{"string", "number", "boolean", "null"}}
	effects := listOf("effect")
	defs := map[string]any{
		"app":    obj(appKeys, map[string]any{"id": str, "version": str}),
		"intent": obj(intentKeys, map[string]any{"slots": mapOf("slot"), "title": str, "description": str}),
		"slot": obj(slotKeys, map[string]any{
			"type": str,
		}),
		"persona":      obj(personaKeys, map[string]any{"model": str, "system_prompt": str, "system_prompt_path": str}),
		"agent_plugin": obj(pluginKeys, map[string]any{"plugin": map[string]any{"type": []any{"string", "null"}, "examples": []any{"subprocess", "mcp_http", "builtin.claude_cli", "builtin.local_llm", "cassette"}}}),
		"provider":     obj(providerKeys, nil),
		"import":       obj(importKeys, map[string]any{"source": str, "entry": str}),
		"exit":         obj(exitKeys, nil),
		"timeout":      obj(timeoutKeys, map[string]any{"after": str, "target": str}),
		"selection":    obj(selectionKeys, nil),
		"transition": obj(transitionKeys, map[string]any{
			"target": str, "when": str, "effects": effects,
		}),
		"transitions": listOf("transition"),
		"effects":     effects,
		"effect": obj(effectKeys, map[string]any{
			"invoke":   map[string]any{"type": []any{"string", "null"}, "examples": []any{"host.run", "host.agent.decide", "host.agent.ask"}},
			"on_error": str, "agent": str, "id": str, "emit_intent": str,
			"selection": ref("selection"),
		}),
		"state": obj(stateKeys, map[string]any{
			"type":        map[string]any{"type": []any{"string", "null"}, "examples": []any{"atomic", "compound", "parallel"}},
			"description": str, "initial": str,
			"states":   mapOf("state"),
			"on":       mapOf("transitions"),
			"on_enter": effects,
			"on_exit":  effects,
			"intents":  mapOf("intent"),
			"timeout":  ref("timeout"),
			"menu":     map[string]any{"type": []any{"array", "null"}, "items": str},
		}),
	}
	top := obj(topKeys, map[string]any{
		"app":           ref("app"),
		"root":          str,
		"states":        mapOf("state"),
		"intents":       mapOf("intent"),
		"agents":        mapOf("persona"),
		"agent_plugins": mapOf("agent_plugin"),
		"providers":     mapOf("provider"),
		"imports":       mapOf("import"),
		"exits":         mapOf("exit"),
		"include":       map[string]any{"type": []any{"array", "null"}, "items": str},
		"hosts":         map[string]any{"type": []any{"array", "null"}, "items": str},
	})
	top["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	top["$id"] = "https://kitsoki.dev/schema/app.json"
	top["title"] = "kitsoki story (app.yaml)"
	top["$defs"] = defs
	return top
}
