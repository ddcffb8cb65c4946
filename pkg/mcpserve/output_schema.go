package mcpserve

import (
	"encoding/json"
	"fmt"
	"slices"
)

// outputSchema decides whether a call site's (bundled) schema can be a
// tool's outputSchema: MCP requires an object root, and a client may reject
// every tool of tools/list over one schema that breaks it. Such a schema is
// kept off the tool (kitsoki still validates answers against it); why is
// the reason for the tool description.
func outputSchema(bundled json.RawMessage) (ok bool, why string) {
	var root map[string]any
	if err := json.Unmarshal(bundled, &root); err != nil || root == nil {
		return false, "its schema is not a JSON object"
	}
	if root["type"] != "object" {
		return false, fmt.Sprintf(`its schema's root is not {"type": "object"} (type %v), which MCP requires of an outputSchema`, describeType(root["type"]))
	}
	if p, has := root["properties"]; has {
		props, isObj := p.(map[string]any)
		if !isObj {
			return false, "its schema's properties is not an object"
		}
		for name, sub := range props {
			if _, isObj := sub.(map[string]any); !isObj {
				return false, fmt.Sprintf("its schema's property %q is not an object schema (MCP clients reject boolean subschemas there)", name)
			}
		}
	}
	if r, has := root["required"]; has {
		arr, isArr := r.([]any)
		if !isArr {
			return false, "its schema's required is not a list"
		}
		if slices.ContainsFunc(arr, func(x any) bool { _, isStr := x.(string); return !isStr }) {
			return false, "its schema's required holds a non-string"
		}
	}
	return true, ""
}

func describeType(t any) string {
	if t == nil {
		return "unset"
	}
	b, _ := json.Marshal(t)
	return string(b)
}
