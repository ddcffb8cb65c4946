package fetch

import (
	"fmt"
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
	free := t.f.FreeSpace
	if free == nil {
		free = freeSpace
	}
	dir := filepath.Dir(t.dest)
	avail, err := free(dir)
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
