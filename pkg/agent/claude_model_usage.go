package agent

import (
	"bytes"
	"encoding/json"
	"fmt"

	"kitsoki/internal/jsonvalue"
)

// soleModel reads the envelope's modelUsage (kept raw: decoded as a map,
// millions of empty members took over jsoncost's ratio of its bytes;
// TestClaudeCostlyModelUsageAllocatesLittle) for
// the one thing kitsoki takes from it, the name of its only model: ok is
// false when it has none or more than one (a name written twice is one, as
// a map counts it). It walks the object's tokens and stops at a second
// name. Anything but an object or null is refused, as its decode into a
// map refused it.
func soleModel(raw json.RawMessage) (name string, ok bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false, nil
	}
	if kind := jsonvalue.RawKind(raw); kind != jsonvalue.KindObject {
		return "", false, fmt.Errorf("the result envelope's modelUsage is %s: expected an object", jsonvalue.WithArticle(kind))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return "", false, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", false, err
		}
		key, _ := tok.(string)
		if ok && key != name {
			return "", false, nil
		}
		name, ok = key, true
		if err := skipValue(dec); err != nil {
			return "", false, err
		}
	}
	return name, ok, nil
}

// skipValue reads past the next value of dec, token by token.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
