package fetch

import (
	"context"
	"fmt"
	"os"
	"time"
)

// fileLock is a cross-process lock held on a *.lock file in the cache.
// Lock files are never removed: removing them would let two processes lock
// two different inodes of the same name.
type fileLock struct{ f *os.File }

// lockFile takes the lock on path, polling until it is free or ctx ends.
func lockFile(ctx context.Context, path string, onWait func()) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w (check that the cache dir is writable, or set --cache-dir or %s)", path, err, EnvCacheDir)
	}
	waited := false
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			return &fileLock{f: f}, nil
		}
		if !waited && onWait != nil {
			onWait()
		}
		waited = true
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for another kitsoki process holding %s: %w", path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (l *fileLock) release() {
	if l == nil || l.f == nil {
		return
	}
	_ = unlock(l.f)
	_ = l.f.Close()
	l.f = nil
}
