package fetch

import (
	"encoding/json"
	"os"
	"time"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"
)

// record is written next to a verified file (<file>.json) so a warm start
// trusts it without re-hashing: same size, same mtime, same pinned digest.
type record struct {
	SHA256     string    `json:"sha256"`
	Size       int64     `json:"size"`
	MtimeNanos int64     `json:"mtime_ns"`
	VerifiedAt time.Time `json:"verified_at"`
}

func recordPath(file string) string { return file + ".json" }

// writeRecord stats file and records it as verified with digest sum.
func writeRecord(file, sum string) error {
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	rec := record{SHA256: sum, Size: st.Size(), MtimeNanos: st.ModTime().UnixNano(), VerifiedAt: time.Now().UTC()}
	data, _ := json.Marshal(rec)
	return atomicfile.Write(recordPath(file), data, 0o644)
}

// readJSON decodes the JSON file at path into v; false when the file is
// missing, unreadable or not valid JSON.
func readJSON(path string, v any) bool {
	data, err := safefile.ReadFile(path, safefile.Data)
	return err == nil && json.Unmarshal(data, v) == nil
}

// recordValid reports whether file is recorded as verified with digest
// want and is unchanged since (size and mtime), and returns its size.
func recordValid(file, want string, wantSize int64) (int64, bool) {
	var rec record
	if !readJSON(recordPath(file), &rec) || rec.SHA256 != want {
		return 0, false
	}
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	if st.Size() != rec.Size || st.ModTime().UnixNano() != rec.MtimeNanos {
		return 0, false
	}
	return rec.Size, wantSize == 0 || wantSize == rec.Size
}
