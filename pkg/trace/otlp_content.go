package trace

import (
	"encoding/json"
	"fmt"
	"strings"

	"kitsoki/internal/human"
)

// maxContentBytes is the most bytes of one prompt, system prompt or
// answer an exported span carries: collectors refuse large requests, and
// the whole text stays in the trace.
const maxContentBytes = 64 << 10

// contentPart and contentMessage are the JSON shapes the GenAI
// conventions give gen_ai.input.messages, gen_ai.output.messages and
// gen_ai.system_instructions.
type contentPart struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

type contentMessage struct {
	Role         string        `json:"role"`
	Parts        []contentPart `json:"parts"`
	FinishReason string        `json:"finish_reason,omitempty"`
}

// addContent adds the opt-in content attributes of a call: its prompt,
// the persona's system prompt and the answer, each clipped to
// maxContentBytes. A text kept in a sidecar the export cannot read (the
// trace came from standard input, or the file is missing) is named in
// kitsoki.content_error instead.
// texts (nil: the trace came from standard input) reads each sidecar once.
func (a *attrs) addContent(c *Call, start callStart, texts *sidecarOnce[string]) {
	var missing []string
	// read is the clipped text of a prompt or response, inline or in the
	// sidecar ref (what text makes of the file's bytes).
	read := func(inline, ref string, text func([]byte) string) (string, bool) {
		if inline != "" || ref == "" {
			return text([]byte(inline)), inline != ""
		}
		if texts == nil {
			missing = append(missing, ref+" (the trace was read from standard input; export it from its file)")
			return "", false
		}
		s, err := texts.get(ref, c.CallID, func(b []byte) (string, int64) {
			s := text(b)
			return s, int64(len(s))
		})
		if err != nil {
			missing = append(missing, err.Error())
			return "", false
		}
		return s, true
	}
	if start.systemPrompt != "" {
		a.jsonStr("gen_ai.system_instructions", []contentPart{{Type: "text", Content: clipContent(start.systemPrompt)}})
	}
	if p, ok := read(c.Prompt, c.PromptFile, func(b []byte) string { return clipContent(string(b)) }); ok {
		a.jsonStr("gen_ai.input.messages", []contentMessage{{Role: "user", Parts: []contentPart{{Type: "text", Content: p}}}})
	}
	if c.Outcome == OutcomeOK {
		if r, ok := read(string(c.Response), c.ResponseFile, func(b []byte) string { return clipContent(string(submissionOf(b))) }); ok {
			a.jsonStr("gen_ai.output.messages", []contentMessage{{Role: "assistant", FinishReason: "stop",
				Parts: []contentPart{{Type: "text", Content: r}}}})
		}
	}
	if len(missing) > 0 {
		a.str("kitsoki.content_error", "not exported: "+strings.Join(missing, "; "))
	}
}

// jsonStr adds v as a string attribute holding its JSON, as the
// conventions record structured content.
func (a *attrs) jsonStr(k string, v any) {
	b, err := json.Marshal(v)
	if err == nil {
		a.str(k, string(b))
	}
}

// clipContent is s cut to maxContentBytes on a character boundary, saying
// how much was left out.
func clipContent(s string) string {
	if len(s) <= maxContentBytes {
		return s
	}
	cut := human.RuneCut(s, maxContentBytes)
	return s[:cut] + fmt.Sprintf("…[%d more bytes in the trace]", len(s)-cut)
}
