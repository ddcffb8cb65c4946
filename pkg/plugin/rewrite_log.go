package plugin

import "kitsoki/internal/jsonvalue"

// rewrittenValues is the new value of each changed key for hook.rewrote
// (model-visible = logged), every string masked with the chain's secrets.
func (c *Chain) rewrittenValues(changed []string, next Payload) map[string]any {
	out := make(map[string]any, len(changed))
	for _, k := range changed {
		out[k] = maskValue(c.mask, next[k])
	}
	return out
}

// maskValue returns a copy of a decoded JSON value with mask applied to
// every string, map keys included.
func maskValue(mask func(string) string, v any) any { return jsonvalue.MapStrings(v, mask, true) }
