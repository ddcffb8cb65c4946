package localllm

import (
	"fmt"
	"reflect"

	"kitsoki/internal/human"
	"kitsoki/internal/jsoncost"
)

// costlyAnswer refuses a server's answer that would take over jsoncost's
// limit (floor 0: jsoncost.Floor) once decoded into t, as every agent
// answer is (pkg/agent's submissions and mcp_http answers;
// TestLocalLLMCostlyAnswerAllocatesLittle). what names the values it holds.
func costlyAnswer(raw []byte, t reflect.Type, floor int64, what string) error {
	if limit, over := jsoncost.OverFor(raw, t, floor); over {
		return fmt.Errorf("the answer is %s of JSON that would take over %s once decoded (millions of empty %s, arrays, objects or values); the server must answer with fewer values", human.Size(int64(len(raw))), human.Size(limit), what)
	}
	return nil
}
