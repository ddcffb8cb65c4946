package fetch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// A resume state (<dest>.part.json) that does not describe the file it
// resumes (a part before byte 0 or past the end, parts that overlap or
// leave a gap) is not trusted: the fetch starts over and succeeds instead
// of failing, run after run, on offsets the state made up.
func TestCorruptResumeStateStartsOver(t *testing.T) {
	data := randomData(1<<20, 31)
	total := int64(len(data))
	for name, parts := range map[string][]partState{
		"negative start": {{Start: -4096, End: total / 2, Done: 0}, {Start: total / 2, End: total}},
		"past the end":   {{Start: 0, End: total / 2}, {Start: total / 2, End: 2 * total}},
		"gap":            {{Start: 0, End: total / 4, Done: total / 4}, {Start: total / 2, End: total, Done: total / 2}},
		"overlap":        {{Start: 0, End: total, Done: 10}, {Start: 10, End: total}},
	} {
		t.Run(name, func(t *testing.T) {
			fs := newFileServer(t, data)
			a := testModel(t, fs, data)
			f := newTestFetcher(t)
			f.PartThreshold, f.Parts = 1<<18, 2
			dest, err := f.Path(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(partPath(dest), make([]byte, total), 0o644); err != nil {
				t.Fatal(err)
			}
			st := resumeState{SHA256: a.SHA256, Total: total, Parallel: true, Ranges: true, Parts: parts}
			st.URL = shownURL(a.URL)
			b, _ := json.Marshal(st)
			if err := os.WriteFile(statePath(dest), b, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, ok := (&transfer{f: f, a: a, show: st.URL, dest: dest, part: partPath(dest)}).loadState(total); ok {
				t.Fatalf("state %+v accepted", parts)
			}
			res := ensureOK(t, f, a)
			wantContent(t, res.Path, data)
		})
	}
}

// FuzzResumeState: any bytes in <dest>.part.json either are refused or
// describe parts that tile the file, each with its progress inside it.
func FuzzResumeState(f *testing.F) {
	f.Add([]byte(`{"url":"https://h/m","sha256":"`+sum256([]byte("x"))+`","total":100,"parallel":true,"parts":[{"start":0,"end":50,"done":10},{"start":50,"end":100,"done":50}]}`), int64(100))
	f.Add([]byte(`{"url":"https://h/m","sha256":"`+sum256([]byte("x"))+`","total":100,"parts":[{"start":0,"end":100}]}`), int64(40))
	f.Add([]byte(`{"parts":[{"start":-1}]}`), int64(0))
	f.Fuzz(func(t *testing.T, state []byte, partSize int64) {
		if partSize < 0 || partSize > 1<<20 {
			return
		}
		dir := t.TempDir()
		dest := filepath.Join(dir, "m.gguf")
		if err := os.WriteFile(statePath(dest), state, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(partPath(dest), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(partPath(dest), partSize); err != nil {
			t.Fatal(err)
		}
		var probe resumeState
		_ = json.Unmarshal(state, &probe)
		a := &Artifact{ID: "m", URL: "https://h/m", SHA256: sum256([]byte("x"))}
		tr := &transfer{a: a, show: "https://h/m", dest: dest, part: partPath(dest)}
		st, ok := tr.loadState(probe.Total)
		if !ok {
			return
		}
		if !st.Parallel {
			if len(st.Parts) != 1 || st.Parts[0].Done != partSize || (st.Total > 0 && partSize > st.Total) {
				t.Fatalf("single-stream state %+v for a part of %d bytes", st, partSize)
			}
			return
		}
		next := int64(0)
		for _, p := range st.Parts {
			if p.Start != next || p.Done < 0 || p.Start+p.Done > p.End {
				t.Fatalf("accepted parts %+v", st.Parts)
			}
			next = p.End
		}
		if next != st.Total {
			t.Fatalf("parts %+v do not cover %d bytes", st.Parts, st.Total)
		}
	})
}
