package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Write-time rules. The writer checks an event before writing anything; a
// rejected event leaves the file untouched.

// checkField rejects a top-level string field that would make the line
// ambiguous or unreadable: line breaks, NUL, invalid UTF-8, non-NFC text.
func checkField(name, v string) error {
	if i := strings.IndexAny(v, "\r\n\x00"); i >= 0 {
		return fmt.Errorf("%s %q contains a %s; identifiers in a trace are single-line text", name, v, ctlName(v[i]))
	}
	if !utf8.ValidString(v) {
		return fmt.Errorf("%s %q is not valid UTF-8", name, v)
	}
	if !norm.NFC.IsNormalString(v) {
		return fmt.Errorf("%s %q contains NFD-normalised unicode (must be NFC); normalise it with norm.NFC.String", name, v)
	}
	return nil
}

func ctlName(c byte) string {
	switch c {
	case '\r':
		return "carriage return (CR)"
	case '\n':
		return "line feed (LF)"
	}
	return "NUL byte"
}

// preparePayload marshals the payload and applies the payload rules: no
// NUL, NaN or Inf, valid UTF-8, every string in NFC.
func preparePayload(p any) (json.RawMessage, error) {
	if raw, ok := p.(json.RawMessage); ok {
		if bytes.IndexByte(raw, 0) >= 0 {
			return nil, errors.New("payload contains NUL byte")
		}
		if len(raw) > 0 && !json.Valid(raw) {
			return nil, fmt.Errorf("payload is not valid JSON: %w", jsonError(raw))
		}
	}
	b, err := marshalPayload(p)
	if err != nil {
		if uv, ok := errors.AsType[*json.UnsupportedValueError](err); ok {
			return nil, fmt.Errorf("payload contains %s, which JSON cannot represent; write null or a string instead", uv.Str)
		}
		return nil, fmt.Errorf("payload does not encode as JSON: %w", err)
	}
	if !utf8.Valid(b) {
		return nil, errors.New("payload is not valid UTF-8")
	}
	if s, bad := firstNonNFC(b); bad {
		return nil, fmt.Errorf("payload string contains NFD-normalised unicode (must be NFC): %q; normalise it with norm.NFC.String", s)
	}
	return b, nil
}

func jsonError(raw []byte) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	return errors.New("invalid JSON")
}

// firstNonNFC returns the first string of the valid JSON b (keys included)
// that is not in NFC.
func firstNonNFC(b []byte) (string, bool) {
	if isASCII(b) && !bytes.Contains(b, []byte(`\u`)) {
		return "", false
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end, escaped, ok := skipString(b, i) // scan.go
		if !ok {
			return "", false
		}
		seg, quoted := b[i+1:end-1], b[i:end]
		i = end - 1
		if isASCII(seg) && !bytes.Contains(seg, []byte(`\u`)) {
			continue
		}
		s := string(seg)
		if escaped {
			var u string
			if json.Unmarshal(quoted, &u) == nil {
				s = u
			}
		}
		if !norm.NFC.IsNormalString(s) {
			return s, true
		}
	}
	return "", false
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
