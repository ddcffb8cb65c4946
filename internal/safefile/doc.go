// Package safefile owns reading the files kitsoki is given ([ReadFile],
// [Open]) as regular files under a size cap, refusing devices, FIFOs,
// sockets and directories and oversize files ([ErrTooLarge]) before they
// are opened (a device may act on an open alone). It must not parse what
// they hold, confine paths to a story's roots or write anything: its
// callers keep those.
//
// Stories, prompts, schemas, fixtures, cassettes, profiles and pins are read
// through it (on Linux, a schema directly inside schemas/ through
// ReadPlainAt, relative to the directory's descriptor), so that /dev/zero
// cannot exhaust memory and a FIFO cannot hang a run.
package safefile
