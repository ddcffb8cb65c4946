package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// offload moves member key of the object raw to a sidecar when it is over
// the threshold, replacing it by refKey (asText: the decoded string).
func (w *Writer) offload(raw json.RawMessage, callID, key, refKey, suffix string, asText bool) (json.RawMessage, error) {
	if len(raw) <= sidecarThreshold || raw[0] != '{' {
		return raw, nil
	}
	members, err := objectMembers(raw)
	if err != nil {
		return raw, nil // not an object we can rewrite: keep it inline
	}
	for i, m := range members {
		if m.key != key || len(m.val) <= sidecarThreshold {
			continue
		}
		data := []byte(m.val)
		if asText {
			var s string
			if json.Unmarshal(m.val, &s) != nil {
				return raw, nil
			}
			if len(s) <= sidecarThreshold {
				return raw, nil
			}
			data = []byte(s)
		}
		rel, err := w.writeSidecar(callID, suffix, data)
		if err != nil {
			return nil, err
		}
		ref, _ := json.Marshal(rel)
		members[i] = member{key: refKey, val: ref}
		return encodeMembers(members), nil
	}
	return raw, nil
}

type member struct {
	key string
	val json.RawMessage
}

// objectMembers splits a JSON object into its members, in order.
func objectMembers(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{k, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after JSON object")
	}
	return out, nil
}

func encodeMembers(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}
