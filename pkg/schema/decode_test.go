package schema

import "testing"

// Bytes after the top-level value are refused at their own line and column.
func TestDecodeJSONTrailingData(t *testing.T) {
	_, err := decodeJSON([]byte("{} \n x"))
	want := "line 2, column 2: unexpected 'x' after the JSON value (exactly one value expected)"
	if err == nil || err.Message != want {
		t.Fatalf("decodeJSON = %v, want %q", err, want)
	}
	if v, err := decodeJSON([]byte("{} \r\n\t")); err != nil || v == nil {
		t.Fatalf("trailing white space refused: %v", err)
	}
}

// Empty input and a stray closing bracket (which json.Decoder.More does
// not report) are refused, the bracket where it is.
func TestDecodeJSONEmptyAndStrayBracket(t *testing.T) {
	for in, want := range map[string]string{
		" \n":  "it is empty: no JSON value",
		"[1]]": "line 1, column 4: unexpected ']' after the JSON value (exactly one value expected)",
	} {
		if _, err := decodeJSON([]byte(in)); err == nil || err.Message != want {
			t.Errorf("decodeJSON(%q) = %v, want %q", in, err, want)
		}
	}
}
