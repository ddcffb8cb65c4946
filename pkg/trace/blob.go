package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
)

// blobThreshold is the size over which a payload's strings (and, if the
// line is still too long, its arrays and objects) move to content-named
// blob files under agent-prompts/, so a value that recurs is stored once.
const blobThreshold = 256 << 10

// blobKey is the key of a blob reference {"$kitsoki_blob": PATH, "bytes":
// N}: the string held raw in PATH (".json": the JSON value held in it).
const blobKey = "$kitsoki_blob"

func isBlobRef(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 2 {
		return false
	}
	_, ok = m[blobKey].(string)
	return ok
}

var blobMarker = []byte(`"` + blobKey + `"`)

// resolveBlobs puts the values of blob references in payload back, read
// through side (the trace's agent-prompts/ folder, each file once);
// costFloor is tooCostlyAt's.
func resolveBlobs(side *sidecars, payload json.RawMessage, preview int, costFloor int64) (json.RawMessage, error) {
	if !bytes.Contains(payload, blobMarker) {
		return payload, nil
	}
	payload, err := spliceBlobs(side, payload, preview)
	if err != nil || !bytes.Contains(payload, blobMarker) {
		return payload, err
	}
	v, err := decodeRead(payload, costFloor)
	if err != nil {
		return nil, err
	}
	v, err = replaceBlobRefs(v, func(ref string) (int64, any, error) {
		size, enc, err := side.blob(ref, preview)
		return size, json.RawMessage(enc), err
	})
	if err != nil {
		return nil, err
	}
	return jsonvalue.MarshalNoHTML(v)
}

// replaceBlobRefs replaces, in place below v (v included), each blob
// reference by the value f gives for its path, checking the size f gives
// against the "bytes" the reference records.
func replaceBlobRefs(v any, f func(ref string) (size int64, val any, err error)) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		if isBlobRef(x) {
			ref := x[blobKey].(string)
			size, val, err := f(ref)
			if err != nil {
				return nil, err
			}
			if n, ok := x["bytes"].(json.Number); ok {
				err = checkBlobSize(ref, n.String(), size)
			}
			return val, err
		}
		for k, e := range x {
			r, err := replaceBlobRefs(e, f)
			if err != nil {
				return nil, err
			}
			x[k] = r
		}
	case []any:
		for i, e := range x {
			r, err := replaceBlobRefs(e, f)
			if err != nil {
				return nil, err
			}
			x[i] = r
		}
	}
	return v, nil
}

// canonicalRef is a blob reference as the writer writes it; "{\"" cannot
// occur inside a JSON string, so a match is always a reference object.
var canonicalRef = &lazyre.Regexp{Expr: `\{"\$kitsoki_blob":"(agent-prompts/[A-Za-z0-9._-]+)","bytes":([0-9]{1,19})\}`}

// spliceBlobs puts canonical references back by copying each blob's
// encoding in place, without re-encoding the payload; other spellings go
// through the general path.
func spliceBlobs(side *sidecars, payload []byte, preview int) ([]byte, error) {
	ms := canonicalRef.Get().FindAllSubmatchIndex(payload, -1)
	if len(ms) == 0 {
		return payload, nil
	}
	var out []byte
	last := 0
	for _, m := range ms {
		ref := string(payload[m[2]:m[3]])
		size, enc, err := side.blob(ref, preview)
		if err == nil {
			err = checkBlobSize(ref, string(payload[m[4]:m[5]]), size)
		}
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = make([]byte, 0, len(payload)+len(enc))
		}
		out = append(append(out, payload[last:m[0]]...), enc...)
		last = m[1]
	}
	return append(out, payload[last:]...), nil
}

// checkBlobs checks that each blob payload refers to exists in the trace's
// agent-prompts/ folder with its recorded size (without reading it);
// costFloor is tooCostlyAt's.
func checkBlobs(side *sidecars, payload json.RawMessage, costFloor int64) error {
	v, err := decodeRead(payload, costFloor)
	if err != nil {
		return err
	}
	_, err = replaceBlobRefs(v, func(ref string) (int64, any, error) {
		size, err := side.size(ref)
		if err != nil {
			return 0, nil, fmt.Errorf("blob %s: %w", ref, err)
		}
		return size, nil, nil
	})
	return err
}

// decodeNumbers decodes the first JSON value of b, numbers kept as
// json.Number (so values re-encode as they were).
func decodeNumbers(b []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeRead is decodeNumbers of a payload read from a trace, refusing
// first one too costly to decode (tooCostlyAt's floor).
func decodeRead(b []byte, costFloor int64) (any, error) {
	if err := tooCostlyAt(b, costFloor); err != nil {
		return nil, fmt.Errorf("a payload with a blob reference %w", err)
	}
	return decodeNumbers(b)
}

// tooCostlyAt refuses a value whose decoding into any would cost more than
// jsoncost.Over's limit with the given floor (a line of many empty {} or
// []); the product passes jsoncost.Floor.
func tooCostlyAt(b []byte, floor int64) error {
	if limit, over := jsoncost.Over(b, floor); over {
		return fmt.Errorf("of %d bytes would take over %d MiB once decoded (many empty values): kitsoki writes no such value", len(b), limit>>20)
	}
	return nil
}

// checkBlobSize checks a blob file's size against the "bytes" its
// reference records.
func checkBlobSize(ref, recorded string, size int64) error {
	if recorded != strconv.FormatInt(size, 10) {
		return fmt.Errorf("blob %s holds %d bytes, the trace says %s: the blob file was changed or cut", ref, size, recorded)
	}
	return nil
}
