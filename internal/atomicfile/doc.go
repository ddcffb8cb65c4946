// Package atomicfile owns kitsoki's one way of replacing a file whole
// ([Write]): a temporary file beside the target, synced, given its mode and
// renamed into place, so a reader sees the old file or the new one, never
// half of either. [WriteIn] does the same inside an [os.Root], every step
// through it, for a writer whose directory an untrusted process may change
// under it (a symbolic link swapped in cannot lead the write out).
// [WriteNew] writes a name that must not replace a file: the temporary
// file is hard-linked into place, so a taken name is an error, never
// replaced. [SweepDead] and [SweepDeadGuards] remove what dead processes
// left, told from live ones' by a lock nobody holds. It must not decide
// where files go or what they hold: its callers name the path and the
// bytes and word the error for their user.
package atomicfile
