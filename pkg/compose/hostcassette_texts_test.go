package compose

import "testing"

// A replayed agent: block's text keys written as numbers or bools are
// the texts Go prints for what upstream's decoder reads, and a response is
// raw JSON only when it starts with { or [ as written. Each want is the
// agent.call.* payload pair the existing engine's `test flows --trace-out`
// wrote for the same episode (hunt102, /tmp/hunt102/tr): ours refused the
// whole cassette at response: .inf, wrote 1.0 as 1.0, and trimmed " [1]"
// into raw JSON.
func TestHostCassetteAgentTexts(t *testing.T) {
	cases := []struct{ agent, start, end string }{
		{`model: 1.0`, `{"verb":"decide","model":"1"}`, `{"verb":"decide","model":"1","duration_ms":0}`},
		{`model: 0x1F`, `{"verb":"decide","model":"31"}`, `{"verb":"decide","model":"31","duration_ms":0}`},
		{`model: True`, `{"verb":"decide","model":"true"}`, `{"verb":"decide","model":"true","duration_ms":0}`},
		{`agent: 1e3`, `{"verb":"decide","agent":"1e3"}`, `{"verb":"decide","agent":"1e3","duration_ms":0}`},
		{`prompt: 0o17`, `{"verb":"decide","prompt":"15"}`, `{"verb":"decide","duration_ms":0}`},
		{`response: 1.0`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"response":"1"}`},
		{`response: 0x10`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"response":"16"}`},
		{`response: 2.50`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"response":"2.5"}`},
		{`response: -0`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"response":"0"}`},
		{`response: .inf`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"response":"+Inf"}`},
		{`response: ' [1]'`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"response":" [1]"}`},
		{`response: "\t{}"`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"response":"\t{}"}`},
		{`response: '[1, 2] '`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"response":[1,2]}`},
		{`error: 1.0`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"error":"1"}`},
		{`error: false`, `{"verb":"decide"}`, `{"verb":"decide","duration_ms":0,"error":"false"}`},
		// an input's !!binary is bytes, written as their base64 text; -0 is 0
		{`input: !!binary aGVsbG8=`, `{"verb":"decide","input":"aGVsbG8="}`, `{"verb":"decide","duration_ms":0}`},
		{`input: { b: !!binary aGk=, e: !!binary "", z: -0, f: -0.0, l: [-0, !!binary aGk=], m: { n: !!binary aGk= } }`,
			`{"verb":"decide","input":{"b":"aGk=","e":"","f":-0,"l":[0,"aGk="],"m":{"n":"aGk="},"z":0}}`, `{"verb":"decide","duration_ms":0}`},
	}
	var blocks []string
	for _, c := range cases {
		blocks = append(blocks, c.agent)
	}
	for i, evs := range replayAgentBlocks(t, blocks) {
		c := cases[i]
		if len(evs) != 2 || evs[0] != c.start || evs[1] != c.end {
			t.Errorf("%s:\n got %v\nwant %s %s", c.agent, evs, c.start, c.end)
		}
	}
}
