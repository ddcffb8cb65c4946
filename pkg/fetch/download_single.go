package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// runSingle downloads as one stream, resuming from the part file's length.
func (t *transfer) runSingle(ctx context.Context) (string, int64, error) {
	fh, err := openCacheFile(t.part)
	if err != nil {
		return "", 0, &writeError{path: t.part, err: err}
	}
	defer fh.Close()
	h := sha256.New()
	done := t.st.Parts[0].Done
	if done > 0 {
		if _, err := io.CopyN(h, fh, done); err != nil {
			done = 0
			h.Reset()
		}
	}
	if err := fh.Truncate(done); err != nil {
		return "", 0, &writeError{path: t.part, err: err}
	}
	t.resumed.Store(done)
	t.done.Store(done)
	t.nparts.Store(1)
	total := t.st.Total
	t.saveState()

	// restart empties the part and returns why (nil to go on with this answer).
	restart := func(why error) error {
		done = 0
		t.resumed.Store(0)
		t.done.Store(0)
		h.Reset()
		if err := fh.Truncate(0); err != nil {
			return &writeError{path: t.part, err: err}
		}
		return why
	}
	err = t.retry(ctx, func(ctx context.Context) (int64, error) {
		if total > 0 && done == total {
			return 0, nil
		}
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		resp, err := t.get(rctx, cancel, done, 0)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		if err := t.singleAnswer(resp, done, restart); err != nil {
			return 0, err
		}
		t.saveState()
		limit := int64(maxUnknownSize) - done
		if total > 0 {
			limit = total - done + 1 // one more byte reveals an oversized body
		}
		n, err := t.copyBody(rctx, resp.Body, cancel, io.MultiWriter(io.NewOffsetWriter(fh, done), h), limit, func(n int64) { done += n; t.done.Add(n) })
		if err != nil {
			return n, err
		}
		return n, t.singleEnd(resp, n, done)
	})
	if err != nil {
		return "", 0, err
	}
	if err := fh.Sync(); err != nil {
		return "", 0, &writeError{path: t.part, err: err}
	}
	return hex.EncodeToString(h.Sum(nil)), done, nil
}

// singleAnswer checks the status of a single-stream answer against the
// part holding done bytes, emptying it (restart) when the answer starts
// from byte zero or does not fit it.
func (t *transfer) singleAnswer(resp *http.Response, done int64, restart func(error) error) error {
	total := t.st.Total
	switch resp.StatusCode {
	case http.StatusRequestedRangeNotSatisfiable:
		// The part does not fit the file behind the URL any more.
		return restart(errors.New("server refused the resume range; restarting from byte 0"))
	case http.StatusPartialContent:
		start, tot, ok := contentRange(resp.Header.Get("Content-Range"))
		if !ok || start != done || (total > 0 && tot >= 0 && tot != total) {
			return restart(errors.New("server answered a different range; restarting from byte 0"))
		}
	case http.StatusOK:
		if done > 0 {
			if err := restart(nil); err != nil {
				return err
			}
		}
		if total > 0 && resp.ContentLength >= 0 && resp.ContentLength != total {
			return &fatalError{fmt.Errorf("size mismatch: %s announces %d bytes, the pin in %s says %d", t.host, resp.ContentLength, t.a.Source, total)}
		}
	}
	return nil
}

// singleEnd checks a single-stream body of n bytes that left done bytes in
// the part: too many is fatal, too few is a short read to retry.
func (t *transfer) singleEnd(resp *http.Response, n, done int64) error {
	total := t.st.Total
	if total > 0 && done > total {
		return &fatalError{fmt.Errorf("size mismatch: %s sent more than the %d bytes the pin in %s records", t.host, total, t.a.Source)}
	}
	if total < 0 && done >= maxUnknownSize {
		return &fatalError{fmt.Errorf("%s sent more than %d bytes for an artifact without a pinned size", t.host, int64(maxUnknownSize))}
	}
	if (resp.ContentLength >= 0 && n < resp.ContentLength) || (total > 0 && done < total) {
		return io.ErrUnexpectedEOF
	}
	return nil
}
