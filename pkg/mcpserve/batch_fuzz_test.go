package mcpserve

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// FuzzBatchReader: the batch bound passes the client's bytes on unchanged
// up to where it fails, fails only on a line that starts with [ and holds
// maxBatch commas or more (maxBatch+1 elements), and never panics; the
// same for an HTTP body (batchOver), across its lines.
func FuzzBatchReader(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"))
	f.Add([]byte(` [{"a":"],\"["},1,2]` + "\n[1,2\n"))
	f.Add([]byte("[" + strings.Repeat("1,", maxBatch+1) + "1]\n"))
	f.Add([]byte("[\"\\\\\"," + strings.Repeat("[],", maxBatch) + "]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if batchOver(data) { // the HTTP body: newlines are blanks
			if l := bytes.TrimLeft(data, " \t\r\n"); len(l) == 0 || l[0] != '[' || bytes.Count(data, []byte(",")) < maxBatch {
				t.Fatalf("refused body %q", data)
			}
		}
		out, err := io.ReadAll(&batchReader{r: bytes.NewReader(data), line: 1, start: true})
		if !bytes.HasPrefix(data, out) {
			t.Fatalf("passed on %q, not a prefix of %q", out, data)
		}
		if err != nil {
			rest := data[len(out):]
			line := data[bytes.LastIndexByte(out, '\n')+1:]
			if end := bytes.IndexByte(rest, '\n'); end >= 0 {
				line = line[:len(out)-(bytes.LastIndexByte(out, '\n')+1)+end]
			}
			if l := bytes.TrimLeft(line, " \t\r"); len(l) == 0 || l[0] != '[' || bytes.Count(line, []byte(",")) < maxBatch {
				t.Fatalf("refused line %q: %v", line, err)
			}
		}
	})
}
