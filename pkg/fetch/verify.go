package fetch

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"time"
)

// hashCached hashes a cached file like hashFile, reporting PhaseVerify
// progress (a first report with Done 0, one per progress interval, and a
// last one with Done == Total) so that hashing a large file is visible.
func (f *Fetcher) hashCached(a *Artifact, path string) (string, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer fh.Close()
	var total int64
	if st, err := fh.Stat(); err == nil {
		total = st.Size()
	}
	f.report(Progress{Artifact: a, Phase: PhaseVerify, Total: total})
	h := sha256.New()
	buf := make([]byte, 1<<20)
	var done int64
	last := time.Now()
	for {
		n, rerr := fh.Read(buf)
		h.Write(buf[:n])
		done += int64(n)
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return "", done, rerr
		}
		if time.Since(last) >= f.progressInterval() {
			last = time.Now()
			f.report(Progress{Artifact: a, Phase: PhaseVerify, Done: done, Total: total})
		}
	}
	f.report(Progress{Artifact: a, Phase: PhaseVerify, Done: done, Total: done})
	return hex.EncodeToString(h.Sum(nil)), done, nil
}
