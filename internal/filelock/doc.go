// Package filelock owns the exclusive, non-blocking advisory lock on an
// open file (flock on Unix, LockFileEx on Windows) that the trace writer
// and the download cache take, and that atomicfile puts on its temporary
// files. It must not open, poll for or remove lock
// files: callers decide what a held lock means and how long to wait.
package filelock
