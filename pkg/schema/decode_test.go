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
