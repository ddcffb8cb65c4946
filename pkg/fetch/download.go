package fetch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kitsoki/internal/sleep"
)

// maxUnknownSize bounds a download whose pin records no size.
const maxUnknownSize = 16 << 30

// errNoRange means the server ignored a Range request (or the file behind
// the URL changed): the download restarts as one stream from byte zero.
var errNoRange = errors.New("server does not honour Range for this file")

// httpStatusError is a non-2xx answer.
type httpStatusError struct {
	code int
	url  string
}

func (e *httpStatusError) Error() string {
	return fmt.Sprintf("download %s: http %d %s", e.url, e.code, http.StatusText(e.code))
}

// writeError is a failure to write the cache: never retried, the part is kept.
type writeError struct {
	path string
	err  error
}

func (e *writeError) Error() string {
	if errors.Is(e.err, errNotRegular) {
		return fmt.Sprintf("write %s: %v", e.path, e.err)
	}
	return fmt.Sprintf("write %s: %v: free disk space or fix permissions in the cache dir (or set %s); the partial download is kept and the next fetch resumes it", e.path, e.err, EnvCacheDir)
}

func (e *writeError) Unwrap() error { return e.err }

// fatalError stops retries (size mismatch, 4xx).
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

var errStalled = errors.New("no data received within the stall timeout")

// maxStalls is how many requests in a row may stall (no byte for the stall
// timeout) before the download gives up; the part is kept and resumed by
// the next fetch.
const maxStalls = 2

// transfer is one download of one artifact into <dest>.part.
type transfer struct {
	f       *Fetcher
	client  *http.Client
	a       *Artifact
	src     string
	show    string // src with its userinfo masked, for messages, logs and the state
	host    string
	dest    string
	part    string
	st      resumeState
	done    atomic.Int64 // bytes on disk (sum over parts)
	resumed atomic.Int64
	nparts  atomic.Int32 // parts in use, for progress reports
	stateMu sync.Mutex
	ranges  atomic.Bool  // the server honours Range (Accept-Ranges or a 206)
	rate    *rateLimiter // nil: no limit
}

func (f *Fetcher) download(ctx context.Context, a *Artifact, dest string) (Result, error) {
	src, err := MirrorURL(a.URL, f.mirror())
	if err != nil {
		return Result{}, err
	}
	client, err := f.httpClient()
	if err != nil {
		return Result{}, err
	}
	client = withRedirectPolicy(client)
	u, _ := url.Parse(src)
	t := &transfer{f: f, client: client, a: a, src: src, show: shownURL(src), host: u.Host, dest: dest, part: partPath(dest), rate: f.newRateLimiter()}
	total := a.Size
	if total == 0 {
		total = -1
	}
	prev, ok := t.loadState(total)
	if !ok {
		discardPart(dest)
	}
	if ok && prev.Ranges {
		t.ranges.Store(true)
	}
	if err := t.checkSpace(total, prev, ok); err != nil {
		return Result{}, err
	}

	stop := t.startReporter()
	oneStream := resumeState{URL: t.show, SHA256: a.SHA256, Total: total, Parts: []partState{{Start: 0, End: total}}}
	switch {
	case ok:
		t.st = prev
	case total > 0 && f.parts() > 1 && total >= f.partThreshold():
		t.st = t.plan(total, f.parts())
	default:
		t.st = oneStream
	}
	run := t.runSingle
	if t.st.Parallel {
		run = t.runParallel
	}
	sum, size, err := run(ctx)
	if errors.Is(err, errNoRange) {
		discardPart(dest)
		t.done.Store(0)
		t.resumed.Store(0)
		t.st = oneStream
		sum, size, err = t.runSingle(ctx)
	}
	stop()
	if err != nil && t.done.Load() > 0 && !t.ranges.Load() {
		// A part the server cannot resume is only wasted disk (a part
		// that holds no byte yet is dropped below either way).
		discardPart(dest)
		return Result{}, fmt.Errorf("%s: download from %s failed: %w (nothing was kept: the server does not support resuming (no Accept-Ranges), so the partial download was deleted; run the fetch again)", a.label(), t.host, err)
	}
	if err != nil {
		// A parallel part is created at its final size: one that holds no
		// byte yet would look like a large partial download.
		if t.done.Load() == 0 {
			discardPart(dest)
		}
		return Result{}, t.describe(ctx, err)
	}
	if sum != a.SHA256 || (a.Size > 0 && size != a.Size) {
		discardPart(dest)
		if t.resumed.Load() > 0 {
			// The bytes kept from an earlier run may be what is wrong (the
			// part changed on disk, or the file behind the URL did without
			// a validator saying so): one download from zero decides.
			if f.Logger != nil {
				f.Logger.Warn(fmt.Sprintf("%s: the resumed download does not match its sha256; downloading it again from the start", a.label()))
			}
			return f.download(ctx, a, dest)
		}
		empty := ""
		if size == 0 {
			empty = ": the server sent an empty file, so the got digest is that of no bytes; retry later or use --mirror"
		}
		return Result{}, fmt.Errorf("%s: sha256 mismatch: got %s want %s (%d bytes from %s, pin expects %s%s); nothing was kept in the cache: if a mirror serves these bytes fix the mirror, otherwise the upstream file changed and the pin in %s must be updated",
			a.label(), sum, a.SHA256, size, t.show, sizeText(a.Size), empty, a.Source)
	}
	if err := os.Rename(t.part, dest); err != nil {
		return Result{}, fmt.Errorf("%s: move %s into place: %w", a.label(), t.part, err)
	}
	_ = os.Remove(statePath(dest))
	t.f.report(Progress{Artifact: a, Phase: PhaseDone, Host: t.host, Done: size, Total: size, Resumed: t.resumed.Load(), Parts: len(t.st.Parts)})
	return Result{Path: dest, Size: size, SHA256: sum, Downloaded: true, Resumed: t.resumed.Load()}, nil
}

func sizeText(n int64) string {
	if n <= 0 {
		return "an unrecorded size"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

func (t *transfer) describe(ctx context.Context, err error) error {
	var we *writeError
	switch {
	case errors.As(err, &we) && isDiskFull(we.err):
		return t.diskFull(we)
	case errors.As(err, &we):
		return fmt.Errorf("%s: %w", t.a.label(), err)
	case ctx.Err() != nil && t.done.Load() == 0:
		return fmt.Errorf("%s: download from %s interrupted: %w (nothing was downloaded yet)", t.a.label(), t.host, ctx.Err())
	case ctx.Err() != nil:
		return fmt.Errorf("%s: download from %s interrupted: %w (the partial download is kept at %s; the next fetch resumes it)", t.a.label(), t.host, ctx.Err(), t.part)
	default:
		hint := networkHint(err, t.src)
		if _, serr := os.Stat(t.part); serr != nil {
			return fmt.Errorf("%s: download from %s failed: %w (nothing was downloaded%s; run the fetch again, or set --mirror/%s)", t.a.label(), t.host, err, hint, EnvMirror)
		}
		return fmt.Errorf("%s: download from %s failed: %w (the partial download is kept%s; run the fetch again to resume, or set --mirror/%s)", t.a.label(), t.host, err, hint, EnvMirror)
	}
}

// startReporter sends the disclosure and then periodic byte counts.
func (t *transfer) startReporter() func() {
	total := t.a.Size
	if t.f.Logger != nil {
		t.f.Logger.Info(fmt.Sprintf("downloading %s (%s) from %s", t.a.label(), HumanSize(total), t.host), "url", t.show, "dest", t.dest)
	}
	t.f.report(Progress{Artifact: t.a, Phase: PhaseStart, Host: t.host, Total: total})
	if t.f.Progress == nil {
		return func() {}
	}
	stopc := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		every(stopc, t.f.progressInterval(), func() {
			t.f.report(Progress{Artifact: t.a, Phase: PhaseDownload, Host: t.host, Done: t.done.Load(), Total: total, Resumed: t.resumed.Load(), Parts: int(t.nparts.Load())})
		})
	})
	return func() { close(stopc); wg.Wait() }
}

// every calls fn once per period until stop is closed.
func every(stop <-chan struct{}, period time.Duration, fn func()) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			fn()
		}
	}
}

// HumanSize formats n bytes as "1.1 GB"; 0 or less is "size unknown".
func HumanSize(n int64) string {
	if n <= 0 {
		return "size unknown"
	}
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}

// ByteCount is HumanSize for a count of bytes: 0 or less is "0 B", not
// "size unknown".
func ByteCount(n int64) string {
	if n <= 0 {
		return "0 B"
	}
	return HumanSize(n)
}

// get issues one GET, with a Range from off (to end-1 when end > 0). A
// server that sends no response headers within the stall timeout is a
// stall: cancel (the request's own) is called and errStalled returned.
func (t *transfer) get(ctx context.Context, cancel context.CancelFunc, off, end int64) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.src, nil)
	if err != nil {
		return nil, &fatalError{maskUserinfo(fmt.Errorf("request %s: %w", t.show, err))}
	}
	req.Header.Set("User-Agent", "kitsoki-fetch")
	if off > 0 || end > 0 {
		if end > 0 {
			req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", off, end-1))
		} else {
			req.Header.Set("Range", fmt.Sprintf("bytes=%d-", off))
		}
		t.stateMu.Lock()
		v := t.st.Validator
		t.stateMu.Unlock()
		if v != "" {
			req.Header.Set("If-Range", v)
		}
	}
	var stalled atomic.Bool
	timer := t.f.startStallTimer(func() { stalled.Store(true); cancel() })
	resp, err := t.client.Do(req)
	if !timer.Stop() || stalled.Load() {
		// The timer fired, even if the headers came in just before it:
		// the request is cancelled either way, so it is a stall (not a
		// "context canceled" read error on the body).
		if err == nil {
			resp.Body.Close()
		}
		return nil, errStalled
	}
	if re, ok := errors.AsType[*redirectError](err); ok {
		return nil, &fatalError{re}
	}
	if err != nil {
		return nil, maskUserinfo(err)
	}
	if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusPartialContent || resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
		t.noteValidator(resp)
		return resp, nil
	}
	resp.Body.Close()
	se := &httpStatusError{code: resp.StatusCode, url: t.show}
	if c := se.code; c >= 500 || c == http.StatusTooManyRequests || c == http.StatusRequestTimeout { // transient: retried
		return nil, se
	}
	return nil, &fatalError{fmt.Errorf("%w: check the pin url in %s or the mirror", se, t.a.Source)}
}

func (t *transfer) noteValidator(resp *http.Response) {
	if resp.StatusCode == http.StatusPartialContent || strings.EqualFold(strings.TrimSpace(resp.Header.Get("Accept-Ranges")), "bytes") {
		if !t.ranges.Swap(true) {
			t.stateMu.Lock()
			t.st.Ranges = true
			t.stateMu.Unlock()
		}
	}
	v := resp.Header.Get("ETag")
	if v == "" || strings.HasPrefix(v, "W/") {
		v = resp.Header.Get("Last-Modified")
	}
	t.stateMu.Lock()
	t.st.Validator = cmp.Or(t.st.Validator, v) // the first validator seen stays
	t.stateMu.Unlock()
}

// contentRange parses a 206 answer's Content-Range, "bytes first-last/
// complete" (RFC 9110 section 14.4; complete "*" is -1): each position
// digits only, first <= last, and last below complete when it is known.
// Anything else (a sign, a blank, a missing or inverted end) is not a
// range this transfer can trust.
func contentRange(h string) (start, total int64, ok bool) {
	rest, found := strings.CutPrefix(h, "bytes ")
	if !found {
		return 0, 0, false
	}
	rng, tot, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, false
	}
	start, okStart := rangePos(a)
	end, okEnd := rangePos(b)
	if !okStart || !okEnd || end < start {
		return 0, 0, false
	}
	total = -1
	if tot != "*" {
		if total, ok = rangePos(tot); !ok || end >= total {
			return 0, 0, false
		}
	}
	return start, total, true
}

// rangePos reads a Content-Range position: one or more ASCII digits that
// fit an int64.
func rangePos(s string) (int64, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// retry runs attempt until it succeeds, fails fatally, or fails Retries
// times in a row without progress. attempt returns the bytes it moved.
func (t *transfer) retry(ctx context.Context, attempt func(ctx context.Context) (int64, error)) error {
	failures, stalls := 0, 0
	for {
		n, err := attempt(ctx)
		if err == nil {
			return nil
		}
		if n > 0 { // progress: both counts start again
			failures, stalls = 0, 0
		}
		if errors.Is(err, errStalled) {
			stalls++
			if stalls >= maxStalls {
				return fmt.Errorf("%w: %d requests in a row received no byte for %s each (stall timeout; see --stall-timeout)", err, stalls, t.f.stallTimeout())
			}
		}
		var fe *fatalError
		var we *writeError
		if ctx.Err() != nil || errors.As(err, &fe) || errors.As(err, &we) || errors.Is(err, errNoRange) || unknownHost(err) || untrustedCert(err) {
			return err
		}
		failures++
		if failures >= t.f.retries() {
			return fmt.Errorf("%w (gave up after %d attempts without progress)", err, failures)
		}
		if err := sleep.For(ctx, retryDelay(t.f.backoff(), failures)); err != nil {
			return err
		}
	}
}

// unknownHost reports a resolver's "no such host": the name does not
// exist (or this box is offline), and asking again cannot change that.
func unknownHost(err error) bool {
	de, ok := errors.AsType[*net.DNSError](err)
	return ok && de.IsNotFound
}

// copyBody copies at most limit bytes of body into w, aborting the request
// (via cancel) when no byte arrives for the stall timeout.
func (t *transfer) copyBody(ctx context.Context, body io.Reader, cancel context.CancelFunc, w io.Writer, limit int64, onWrite func(int64)) (int64, error) {
	var stalled atomic.Bool
	timer := t.f.startStallTimer(func() { stalled.Store(true); cancel() })
	defer timer.Stop()
	buf := make([]byte, t.rate.chunk(256<<10))
	var total int64
	for total < limit {
		want := min(int64(len(buf)), limit-total)
		n, rerr := body.Read(buf[:want])
		if n > 0 {
			timer.Reset(t.f.stallTimeout())
			wn, werr := w.Write(buf[:n])
			total += int64(wn)
			onWrite(int64(wn))
			if werr != nil {
				return total, &writeError{path: t.part, err: werr}
			}
			// Waiting for the rate is not the server stalling.
			if err := t.rate.wait(ctx, int64(wn)); err != nil {
				return total, err
			}
			timer.Reset(t.f.stallTimeout())
		}
		if rerr == io.EOF {
			return total, nil
		}
		if rerr != nil {
			if stalled.Load() {
				return total, errStalled
			}
			return total, rerr
		}
	}
	return total, nil
}
