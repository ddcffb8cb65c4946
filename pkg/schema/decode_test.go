package schema

import "testing"

// Bytes after the top-level value are refused at their own line and column.
func TestDecodeJSONTrailingData(t *testing.T) {
	_, err := decodeJSON([]byte("{} \n x"))
	want := "invalid JSON at byte offset 5 (line 2, column 2): unexpected 'x' after the top-level value"
	if err == nil || err.Message != want {
		t.Fatalf("decodeJSON = %v, want %q", err, want)
	}
	if v, err := decodeJSON([]byte("{} \r\n\t")); err != nil || v == nil {
		t.Fatalf("trailing white space refused: %v", err)
	}
}

// Empty input and a stray closing bracket (which json.Decoder.More does
// not report) are refused with the offset of where they are.
func TestDecodeJSONEmptyAndStrayBracket(t *testing.T) {
	for in, want := range map[string]string{
		" \n":  "invalid JSON at byte offset 2 (line 2, column 1): empty input, expected a JSON value",
		"[1]]": "invalid JSON at byte offset 3 (line 1, column 4): unexpected ']' after the top-level value",
	} {
		if _, err := decodeJSON([]byte(in)); err == nil || err.Message != want {
			t.Errorf("decodeJSON(%q) = %v, want %q", in, err, want)
		}
	}
}
