package fetch

import "os"

// PartialBytes reports how many bytes of an interrupted download of a are
// really on disk: the sum of the parts' progress from the resume state (a
// parallel .part is sparse, so its length says nothing), else the length
// of a single-stream .part. ok is false when there is no partial download.
func (f *Fetcher) PartialBytes(a *Artifact) (n int64, ok bool) {
	dest, err := f.Path(a)
	if err != nil {
		return 0, false
	}
	fi, err := os.Stat(partPath(dest))
	if err != nil {
		return 0, false
	}
	var st resumeState
	if !readJSON(statePath(dest), &st) {
		// No usable state: the next fetch starts over.
		return 0, true
	}
	if !st.Parallel {
		return fi.Size(), true
	}
	for _, p := range st.Parts {
		if p.Done > 0 {
			n += p.Done
		}
	}
	return n, true
}
