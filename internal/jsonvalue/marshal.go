package jsonvalue

import (
	"bytes"
	"encoding/json"
)

// MarshalNoHTML is json.Marshal(v) with <, > and & as written (not
// \u003c): the JSON a trace line or a message shows a person.
func MarshalNoHTML(v any) ([]byte, error) { return marshalNoHTML(v, "") }

// MarshalIndentNoHTML is MarshalNoHTML indented as json.MarshalIndent(v,
// "", "  ") indents.
func MarshalIndentNoHTML(v any) ([]byte, error) { return marshalNoHTML(v, "  ") }

func marshalNoHTML(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
