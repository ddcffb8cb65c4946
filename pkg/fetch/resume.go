package fetch

import (
	"encoding/json"
	"os"

	"kitsoki/internal/atomicfile"
)

// partState is one byte range of a download; End is exclusive, -1 when the
// total is unknown (single stream).
type partState struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
	Done  int64 `json:"done"`
}

// resumeState is kept in <dest>.part.json while a download is incomplete.
type resumeState struct {
	URL       string      `json:"url"`
	SHA256    string      `json:"sha256"`
	Total     int64       `json:"total"`
	Validator string      `json:"validator,omitempty"` // strong ETag or Last-Modified, for If-Range
	Parallel  bool        `json:"parallel"`
	Ranges    bool        `json:"ranges,omitempty"` // the server honours Range: the part is resumable
	Parts     []partState `json:"parts"`
}

func partPath(dest string) string { return dest + ".part" }

func statePath(dest string) string { return dest + ".part.json" }

func discardPart(dest string) {
	_ = os.Remove(partPath(dest))
	_ = os.Remove(statePath(dest))
}

// loadState returns a resume state that still matches the artifact and the part file.
func (t *transfer) loadState(total int64) (resumeState, bool) {
	var st resumeState
	if !readJSON(statePath(t.dest), &st) {
		return st, false
	}
	if st.URL != t.show || st.SHA256 != t.a.SHA256 || st.Total != total || len(st.Parts) == 0 {
		return st, false
	}
	fi, err := os.Stat(t.part)
	if err != nil {
		return st, false
	}
	if !st.Parallel {
		if len(st.Parts) != 1 {
			return st, false
		}
		st.Parts[0].Done = fi.Size()
		if total > 0 && fi.Size() > total {
			return st, false
		}
		return st, true
	}
	if fi.Size() != total {
		return st, false
	}
	// The parts must tile [0, total) in order, each with 0 <= done <= its
	// length: a state that says otherwise was not written by a fetch.
	next := int64(0)
	for _, p := range st.Parts {
		if p.Start != next || p.End <= p.Start || p.Done < 0 || p.Done > p.End-p.Start {
			return st, false
		}
		next = p.End
	}
	return st, next == total
}

func (t *transfer) saveState() {
	t.stateMu.Lock()
	if t.ranges.Load() {
		t.st.Ranges = true
	}
	data, _ := json.Marshal(t.st)
	t.stateMu.Unlock()
	_ = atomicfile.Write(statePath(t.dest), data, 0o644)
}

func (t *transfer) plan(total int64, n int) resumeState {
	st := resumeState{URL: t.show, SHA256: t.a.SHA256, Total: total, Parallel: true}
	size := total / int64(n)
	for i := range n {
		start := int64(i) * size
		end := start + size
		if i == n-1 {
			end = total
		}
		st.Parts = append(st.Parts, partState{Start: start, End: end})
	}
	return st
}
