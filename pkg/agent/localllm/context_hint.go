package localllm

import (
	"encoding/json"
	"fmt"
	"strings"
)

// contextHint explains llama-server's refusal of a prompt longer than a
// slot's context ("" for any other error body). llama-server divides its
// context (-c) among its decode slots (-np): the n_ctx it reports is one
// slot's share, which is what surprises users who set -c alone.
func contextHint(raw []byte, managed bool) string {
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
			Prompt  int64  `json:"n_prompt_tokens"`
			Ctx     int64  `json:"n_ctx"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return ""
	}
	e := body.Error
	if e.Type != "exceed_context_size_error" && !strings.Contains(e.Message, "exceeds the available context size") {
		return ""
	}
	size := ""
	if e.Prompt > 0 && e.Ctx > 0 {
		size = fmt.Sprintf(" (the prompt has %d tokens, a slot holds %d)", e.Prompt, e.Ctx)
	}
	if managed {
		return "; the prompt is longer than one slot's context" + size + ": the managed llama-server runs --parallel 4, and each slot gets a quarter of the model's context; shorten the prompt, or run llama-server yourself with a larger -c or a smaller -np and attach with endpoint:"
	}
	return "; the prompt is longer than one slot's context" + size + ": llama-server divides -c among its -np slots (-c 8192 -np 4 gives each 2048); shorten the prompt, or restart the server with a larger -c or a smaller -np"
}
