package trace

import (
	"bytes"
	"encoding/json"
)

// wholeBytes is the largest payload member the timeline decodes into Go
// values. A larger one stays its JSON text (a bigValue): decoded whole, a
// long list of short items takes many times its size in interface values
// only to print a short preview of it (BenchmarkTimelineLargePayload).
const wholeBytes = 64 << 10

// bigValue is a payload member of more than wholeBytes, as its JSON text.
type bigValue json.RawMessage

// payloadMap is an event's payload object, its members decoded (numbers
// as json.Number) up to wholeBytes each; a larger member is a bigValue.
// encoding/json reads the members, so a repeated key keeps its last value
// as a whole decode would.
func payloadMap(p any) map[string]any {
	raw, ok := p.(json.RawMessage)
	if !ok || len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	m, _ := members(raw)
	return m
}

// members decodes the JSON object raw one level down: each member up to
// wholeBytes whole, a larger one as a bigValue. ok is false when raw is
// not an object.
func members(raw []byte) (map[string]any, bool) {
	if len(raw) <= wholeBytes {
		v, _ := decodeNumbers(raw)
		m, ok := v.(map[string]any)
		return m, ok
	}
	var shallow map[string]json.RawMessage
	if json.Unmarshal(raw, &shallow) != nil || shallow == nil {
		return nil, false
	}
	m := make(map[string]any, len(shallow))
	for k, r := range shallow {
		if len(r) > wholeBytes {
			m[k] = bigValue(r)
			continue
		}
		m[k], _ = decodeNumbers(r)
	}
	return m, true
}

// object is v as an object's members: a decoded object, or a bigValue
// holding one decoded a level down.
func object(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case bigValue:
		if len(x) > 0 && x[0] == '{' {
			return members(x)
		}
	}
	return nil, false
}

// text is v as a string: a decoded string, or a bigValue holding one.
func text(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bigValue:
		var s string
		if len(x) > 0 && x[0] == '"' && json.Unmarshal(x, &s) == nil {
			return s, true
		}
	}
	return "", false
}

// preview is a bigValue as the timeline shows it: its JSON text compacted,
// clipped to n runes (a string decoded, as a whole value is shown).
func (v bigValue) preview(tl *Timeline) string {
	if s, ok := text(v); ok {
		return tl.value(s)
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return tl.clip(string(v))
	}
	return tl.clip(b.String())
}
