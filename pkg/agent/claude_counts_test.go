package agent

import (
	"strings"
	"testing"
)

// The envelope's counts are JSON numbers: a whole one written as a float
// (3.0, 3e0, 30e-1) is the count; a fraction, a number past 64 bits or a
// value of another kind is refused naming the member and the value.
func TestClaudeEnvelopeCounts(t *testing.T) {
	for _, c := range []struct {
		json, want string
		turns      int64
		in         int64
	}{
		{`"num_turns":3.0`, "", 3, 0},
		{`"num_turns":3e0,"usage":{"input_tokens":2.0}`, "", 3, 2},
		{`"num_turns":30e-1,"usage":{"input_tokens":-0.0}`, "", 3, 0},
		{`"num_turns":0.0e99999999999999999999`, "", 0, 0},
		{`"num_turns":null,"usage":{"input_tokens":9223372036854775807}`, "", 0, 9223372036854775807},
		{`"num_turns":3.5`, "the result envelope's num_turns is 3.5: expected an integer", 0, 0},
		{`"num_turns":3.0000000000000000001`, "the result envelope's num_turns is 3.0000000000000000001: expected an integer", 0, 0},
		{`"num_turns":1e-99999999999999999999`, "the result envelope's num_turns is 1e-99999999999999999999: expected an integer", 0, 0},
		{`"usage":{"output_tokens":1e400}`, "the result envelope's usage.output_tokens is 1e400: expected an integer of at most 64 bits", 0, 0},
		{`"usage":{"output_tokens":9223372036854775808}`, "the result envelope's usage.output_tokens is 9223372036854775808: expected an integer of at most 64 bits", 0, 0},
		{`"duration_ms":"12"`, "the result envelope's duration_ms is a string: expected an integer", 0, 0},
		{`"usage":{"cache_read_input_tokens":[1]}`, "the result envelope's usage.cache_read_input_tokens is a list: expected an integer", 0, 0},
	} {
		out := `{"type":"result","result":"x",` + c.json + `}`
		for _, stdout := range []string{out, "warning: w\n" + out} {
			env, err := parseClaudeEnvelope([]byte(stdout))
			want := c.want
			if want != "" && strings.HasPrefix(stdout, "warning") {
				want = "line 2: " + want
			}
			switch {
			case want == "" && err != nil:
				t.Errorf("%s: %v", stdout, err)
			case want != "" && (err == nil || err.Error() != want):
				t.Errorf("%s: got %v, want %s", stdout, err, want)
			case want == "" && (env.NumTurns != c.turns || env.Usage.InputTokens != c.in):
				t.Errorf("%s: num_turns %d, input_tokens %d", stdout, env.NumTurns, env.Usage.InputTokens)
			}
		}
	}
}
