package trace

import "fmt"

// maxExportTexts bounds what trace export --content keeps of the prompt
// and response sidecars it read, for later calls naming the same file: a
// value is at most maxContentBytes, so some thousand files.
const maxExportTexts = 64 << 20

// sidecarOnce reads each prompt or response sidecar (prompt_file,
// response_file) a command names once, and keeps what the command made
// of it (a clipped text, a cassette's response) for every later call
// naming the same file, as `trace show --prompts` does: read again per
// call, a trace whose many calls name one large prompt or answer made
// `trace export --content` and `trace to-cassette` read it once per call,
// many times the trace's size. What is kept is bounded by budget
// (the bytes each make counts); a sidecar named again after the budget
// was spent is not read again: its error names the call that read it.
type sidecarOnce[T any] struct {
	tracePath string
	limit     int64 // the most one sidecar may hold (ReadSidecar)
	budget    int64
	kept      int64
	seen      map[string]*onceEntry[T]
}

type onceEntry[T any] struct {
	val  T
	err  error
	by   string // the call that read it
	held bool
}

func newSidecarOnce[T any](tracePath string, limit, budget int64) *sidecarOnce[T] {
	return &sidecarOnce[T]{tracePath: tracePath, limit: limit, budget: budget, seen: map[string]*onceEntry[T]{}}
}

// get is what make made of the sidecar ref, read when call by first
// names it; make returns the value and the bytes it holds.
func (o *sidecarOnce[T]) get(ref, by string, make func([]byte) (T, int64)) (T, error) {
	if e := o.seen[ref]; e != nil {
		if e.held || e.err != nil {
			return e.val, e.err
		}
		var zero T
		return zero, fmt.Errorf("sidecar %s: read for call %s already, and not again: one command reads each sidecar once and keeps at most %d MiB of them", ref, e.by, o.budget>>20)
	}
	e := &onceEntry[T]{by: by}
	b, err := ReadSidecar(o.tracePath, ref, o.limit)
	if err != nil {
		e.err, e.held = err, true
	} else {
		var n int64
		e.val, n = make(b)
		if o.kept+n <= o.budget {
			o.kept += n
			e.held = true
		}
	}
	o.seen[ref] = e
	return e.val, e.err
}
