package fetch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// checkSpace refuses a download of total bytes (unknown when <= 0) that
// the cache's file system cannot hold, before its first byte: it names how
// much is needed, how much a kept part already holds and how much is free.
func (t *transfer) checkSpace(total int64, prev resumeState, resumable bool) error {
	if total <= 0 {
		return nil
	}
	var have int64
	if resumable {
		for _, p := range prev.Parts {
			have += p.Done
		}
	}
	need := total - have
	if need <= 0 {
		return nil
	}
	dir := filepath.Dir(t.dest)
	avail, err := t.f.freeSpace(dir)
	if err != nil || avail < 0 {
		return nil // unknown: the write error path still reports a full disk
	}
	if avail < need {
		kept := ""
		if have > 0 {
			kept = fmt.Sprintf(" (%s already downloaded and kept)", HumanSize(have))
		}
		return fmt.Errorf("%s: needs %s more free space in %s to download %s%s, but only %s is free: free disk space, or %s to a larger disk; nothing was downloaded",
			t.a.label(), HumanSize(need), dir, HumanSize(total), kept, ByteCount(avail), setCacheDir)
	}
	return nil
}

// freeSpace is FreeSpace, else the file system's count.
func (f *Fetcher) freeSpace(dir string) (int64, error) {
	if f.FreeSpace != nil {
		return f.FreeSpace(dir)
	}
	return freeSpace(dir)
}

// diskFull describes a download the disk filled up under (another program
// wrote to it since checkSpace, or its free space was unknown): it is not
// retried, and the message names the part kept, how much more the download
// needs and how much is free now.
func (t *transfer) diskFull(we *writeError) error {
	dir := filepath.Dir(t.dest)
	done := t.done.Load()
	need := "more space"
	if total := t.st.Total; total > 0 {
		need = HumanSize(total-done) + " more"
	}
	now := ""
	if avail, err := t.f.freeSpace(dir); err == nil && avail >= 0 {
		now = fmt.Sprintf(" (%s free now)", ByteCount(avail))
	}
	why := we.err
	if pe, ok := errors.AsType[*os.PathError](why); ok {
		why = pe.Err
	}
	return &wrapped{err: we.err, msg: fmt.Sprintf("%s: the disk is full: write %s: %v; the download needs %s in %s%s: free disk space, or %s to a larger disk; the %s already downloaded are kept and the next fetch resumes them",
		t.a.label(), we.path, why, need, dir, now, setCacheDir, ByteCount(done))}
}

// wrapped is an error whose text is msg and whose cause is err.
type wrapped struct {
	err error
	msg string
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }
