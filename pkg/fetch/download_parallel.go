package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// runParallel downloads the planned parts concurrently into a file of the
// final size, while a hasher follows the contiguous written prefix so the
// digest is computed in order.
func (t *transfer) runParallel(ctx context.Context) (string, int64, error) {
	fh, err := t.openPart()
	if err != nil {
		return "", 0, err
	}
	defer fh.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr := t.newParallelRun(fh)

	var sum string
	var hashErr error
	var hasher sync.WaitGroup
	hasher.Go(func() { sum, hashErr = pr.hashInOrder(ctx) })
	var saver sync.WaitGroup // saves the resumable state each second
	saver.Go(func() {
		every(ctx.Done(), time.Second, func() { t.snapshot(pr.progress); t.saveState() })
	})

	first := pr.fetchParts(ctx, cancel) // a failure cancels ctx, which stops the hasher
	hasher.Wait()
	cancel()
	saver.Wait()
	t.snapshot(pr.progress)
	if first != nil {
		t.saveState()
		return "", 0, first
	}
	if hashErr != nil {
		return "", 0, hashErr
	}
	if err := fh.Sync(); err != nil {
		return "", 0, &writeError{path: t.part, err: err}
	}
	return sum, pr.total, nil
}

// parallelRun is one parallel download: the part file, each part's bounds
// and bytes done so far, and the wake-up of the hasher.
type parallelRun struct {
	t        *transfer
	fh       *os.File
	total    int64
	bounds   []partState
	progress []atomic.Int64
	notify   chan struct{}
}

// openPart opens the .part file and sizes it to the whole download.
func (t *transfer) openPart() (*os.File, error) {
	fh, err := openCacheFile(t.part)
	if err != nil {
		return nil, &writeError{path: t.part, err: err}
	}
	if fi, err := fh.Stat(); err == nil && fi.Size() != t.st.Total {
		if err := fh.Truncate(t.st.Total); err != nil {
			fh.Close()
			return nil, &writeError{path: t.part, err: err}
		}
	}
	return fh, nil
}

// newParallelRun takes each part's progress from the saved state (a
// resumed download) and saves the state once.
func (t *transfer) newParallelRun(fh *os.File) *parallelRun {
	n := len(t.st.Parts)
	t.nparts.Store(int32(n))
	pr := &parallelRun{t: t, fh: fh, total: t.st.Total, bounds: append([]partState(nil), t.st.Parts...),
		progress: make([]atomic.Int64, n), notify: make(chan struct{}, 1)}
	var resumed int64
	for i, p := range t.st.Parts {
		pr.progress[i].Store(p.Done)
		resumed += p.Done
	}
	t.resumed.Store(resumed)
	t.done.Store(resumed)
	t.saveState()
	return pr
}

// poke wakes the hasher (never blocks).
func (pr *parallelRun) poke() {
	select {
	case pr.notify <- struct{}{}:
	default:
	}
}

// hashInOrder reads back what the parts wrote, in file order, as soon as
// it is written, and returns the file's SHA-256 (or why it stopped).
func (pr *parallelRun) hashInOrder(ctx context.Context) (string, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	var off int64
	i := 0
	for off < pr.total {
		p := pr.bounds[i]
		avail := p.Start + pr.progress[i].Load()
		if off < avail {
			m := min(avail-off, int64(len(buf)))
			r, err := pr.fh.ReadAt(buf[:m], off)
			h.Write(buf[:r])
			off += int64(r)
			if err != nil && !(errors.Is(err, io.EOF) && int64(r) == m) {
				return "", fmt.Errorf("read back %s: %w", pr.t.part, err)
			}
			if off >= p.End {
				i++
			}
			continue
		}
		select {
		case <-pr.notify:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fetchParts downloads every part at once (each with its retries); the
// first failure cancels the others. It returns the error to report: a
// server that refuses ranges wins over the cancellations it caused.
func (pr *parallelRun) fetchParts(ctx context.Context, cancel context.CancelFunc) error {
	errs := make(chan error, len(pr.bounds))
	var wg sync.WaitGroup
	for i := range pr.bounds {
		wg.Go(func() {
			if err := pr.t.retry(ctx, func(ctx context.Context) (int64, error) { return pr.fetchPart(ctx, i) }); err != nil {
				errs <- err
				cancel()
			}
		})
	}
	wg.Wait()
	close(errs)
	var first error
	for err := range errs {
		if first == nil || errors.Is(err, errNoRange) {
			first = err
		}
	}
	return first
}

// fetchPart is one attempt at part i: a range request from where the part
// stands to its end, written in place.
func (pr *parallelRun) fetchPart(ctx context.Context, i int) (int64, error) {
	p := pr.bounds[i]
	off := p.Start + pr.progress[i].Load()
	if off >= p.End {
		return 0, nil
	}
	rctx, rcancel := context.WithCancel(ctx)
	defer rcancel()
	resp, err := pr.t.get(rctx, rcancel, off, p.End)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	start, tot, ok := contentRange(resp.Header.Get("Content-Range"))
	if resp.StatusCode != http.StatusPartialContent || !ok || start != off || tot != pr.total {
		return 0, errNoRange
	}
	want := p.End - off
	m, err := pr.t.copyBody(rctx, resp.Body, rcancel, io.NewOffsetWriter(pr.fh, off), want, func(k int64) {
		pr.progress[i].Add(k)
		pr.t.done.Add(k)
		pr.poke()
	})
	if err != nil {
		return m, err
	}
	if m < want {
		return m, io.ErrUnexpectedEOF
	}
	return m, nil
}

func (t *transfer) snapshot(progress []atomic.Int64) {
	t.stateMu.Lock()
	for i := range t.st.Parts {
		t.st.Parts[i].Done = progress[i].Load()
	}
	t.stateMu.Unlock()
}
