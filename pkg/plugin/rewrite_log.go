package plugin

// rewrittenValues is the new value of each changed key for hook.rewrote
// (model-visible = logged), a copy with every string masked with the
// chain's secrets, map keys included (maskJSON).
func (c *Chain) rewrittenValues(changed []string, next Payload) map[string]any {
	out := make(map[string]any, len(changed))
	for _, k := range changed {
		out[k] = next[k]
	}
	return maskJSON(c.mask, out)
}
