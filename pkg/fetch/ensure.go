package fetch

import (
	"context"
	"fmt"
	"os"
)

// Ensure makes the pinned artifact present and verified in the cache and
// returns its path. A warm call trusts the file's record (no re-hash)
// unless opts.Verify; opts.Force downloads again. Concurrent callers, in
// this process or others, download once: the others wait on the
// artifact's lock and then find it cached.
func (f *Fetcher) Ensure(ctx context.Context, a *Artifact, opts EnsureOptions) (Result, error) {
	if a == nil {
		return Result{}, fmt.Errorf("fetch: no artifact given")
	}
	if !a.Pinned() {
		return Result{}, fmt.Errorf("%s: download pin not configured (managed mode unavailable until pins are set); use endpoint: mode, or set sha256 in %s", a.label(), a.Source)
	}
	dest, err := f.Path(a)
	if err != nil {
		return Result{}, err
	}
	done := Result{Path: dest, SHA256: a.SHA256}
	if n, ok := recordValid(dest, a.SHA256, a.Size); ok && !opts.Force && !opts.Verify {
		done.Size = n
		return done, nil
	}
	offline, err := f.offline()
	if err != nil {
		return Result{}, err
	}
	if offline && opts.Force {
		return Result{}, fmt.Errorf("%s: a forced download and offline mode (--offline or %s) exclude each other: drop one", a.label(), EnvOffline)
	}
	lock, err := f.lockArtifact(ctx, a, dest)
	if err != nil {
		if ctx.Err() == nil && !opts.Force {
			if res, ok := f.verifiedInPlace(a, dest); ok {
				return res, nil
			}
		}
		return Result{}, err
	}
	defer lock.release()

	if opts.Force {
		// The verified file stays until its replacement has verified:
		// download renames the new file over it in one step.
		discardPart(dest)
	} else if n, ok := recordValid(dest, a.SHA256, a.Size); ok && !opts.Verify {
		// Another process finished it while we waited.
		done.Size = n
		return done, nil
	} else if _, err := os.Stat(dest); err == nil {
		// A file without a valid record, or --verify: hash it once.
		sum, n, err := f.hashCached(a, dest)
		if err == nil && sum == a.SHA256 && (a.Size == 0 || n == a.Size) {
			if err := writeRecord(dest, sum); err != nil {
				return Result{}, fmt.Errorf("record %s: %w", dest, err)
			}
			done.Size = n
			return done, nil
		}
		// Corrupt or foreign: it must not stay in the cache.
		_ = os.Remove(recordPath(dest))
		_ = os.Remove(dest)
		if offline {
			return Result{}, f.offlineRefusal(a, dest, "the cached file failed its sha256 check and was removed from")
		}
		f.report(Progress{Artifact: a, Phase: PhaseMismatch, Done: n, Total: a.Size})
	}
	if offline {
		return Result{}, f.offlineRefusal(a, dest, "nothing verified is cached at")
	}

	res, err := f.download(ctx, a, dest)
	if err != nil {
		return Result{}, err
	}
	if err := writeRecord(dest, a.SHA256); err != nil {
		return Result{}, fmt.Errorf("record %s: %w", dest, err)
	}
	return res, nil
}

// Cached reports whether a is in the cache with a valid record (no hashing).
func (f *Fetcher) Cached(a *Artifact) bool {
	if !a.Pinned() {
		return false
	}
	dest, err := f.Path(a)
	if err != nil {
		return false
	}
	_, ok := recordValid(dest, a.SHA256, a.Size)
	return ok
}

// verifiedInPlace hashes a cached file whose lock cannot be taken (a
// read-only cache) and accepts it when it matches the pin, as the existing
// engine does on every start; nothing is written.
func (f *Fetcher) verifiedInPlace(a *Artifact, dest string) (Result, bool) {
	st, err := os.Stat(dest)
	if err != nil || !st.Mode().IsRegular() {
		return Result{}, false
	}
	sum, n, err := f.hashCached(a, dest)
	if err != nil || sum != a.SHA256 || (a.Size != 0 && n != a.Size) {
		return Result{}, false
	}
	return Result{Path: dest, Size: n, SHA256: sum}, true
}
