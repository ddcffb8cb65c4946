package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// KeyOffsets maps every object key of a JSON document, named in the
// "$.properties.x" form the grammar checks use (array elements as "[i]"), to
// the byte offset of the key's opening quote. A repeated key maps to its
// last occurrence, the one a decoder keeps. Unparsable input gives nil.
func KeyOffsets(raw []byte) map[string]int {
	if _, perr := decodeJSON(raw); perr != nil {
		return nil
	}
	w := keyWalker{dec: json.NewDecoder(bytes.NewReader(raw)), raw: raw, out: map[string]int{}}
	if w.value("$") != nil {
		return nil
	}
	return w.out
}

type keyWalker struct {
	dec *json.Decoder
	raw []byte
	out map[string]int
}

func (w *keyWalker) value(p string) error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		for w.dec.More() {
			start := int(w.dec.InputOffset())
			kt, err := w.dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			kp := p + "." + key
			w.out[kp] = w.keyStart(start)
			if err := w.value(kp); err != nil {
				return err
			}
		}
		_, err = w.dec.Token()
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			if err := w.value(fmt.Sprintf("%s[%d]", p, i)); err != nil {
				return err
			}
		}
		_, err = w.dec.Token()
	}
	return err
}

// keyStart skips the whitespace and comma between the previous token's end
// and a key's opening quote.
func (w *keyWalker) keyStart(off int) int {
	for off < len(w.raw) && w.raw[off] != '"' {
		off++
	}
	return off
}
