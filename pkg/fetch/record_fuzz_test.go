package fetch

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRecordValid: any bytes in a verified file's record: no panic, and a
// record is trusted only when it names the pinned digest and the file's
// own size and mtime.
func FuzzRecordValid(f *testing.F) {
	dir := f.TempDir()
	file := filepath.Join(dir, "model.bin")
	if err := os.WriteFile(file, []byte("weights"), 0o600); err != nil {
		f.Fatal(err)
	}
	if err := writeRecord(file, "abc"); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(recordPath(file))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(`"abc"`), []byte(`"abd"`), 1)) // another digest, the same file
	f.Add([]byte(`{"sha256":"abc","size":-1,"mtime_ns":1e400}`))
	f.Add([]byte(`{"SHA256":"abc","sha256":"abd","verified_at":"x"}`))
	st, err := os.Stat(file)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(recordPath(file), data, 0o600); err != nil {
			t.Fatal(err)
		}
		size, ok := recordValid(file, "abc", 0)
		var rec record
		trusted := json.Unmarshal(data, &rec) == nil && rec.SHA256 == "abc" && rec.Size == st.Size() && rec.MtimeNanos == st.ModTime().UnixNano()
		if ok != trusted || (ok && size != st.Size()) {
			t.Fatalf("record %q: trusted %v (size %d), want %v", data, ok, size, trusted)
		}
	})
}
