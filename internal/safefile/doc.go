// Package safefile owns reading the files kitsoki is given ([ReadFile],
// [Open]) as regular files under a size cap, refusing devices, FIFOs,
// sockets and directories and oversize files ([ErrTooLarge])
// before a byte is read. It must not parse what they hold, confine paths to a
// story's roots or write anything: its callers keep those.
//
// In full, it reads the files kitsoki is given (stories, prompts,
// schemas, fixtures, cassettes, profiles, pins) as regular files under a
// size cap, refusing devices, FIFOs, sockets and directories before a byte
// is read so that /dev/zero cannot exhaust memory and a FIFO cannot hang.
// It knows nothing of what the files hold and never writes; parsing,
// confinement to a story's roots and error positions stay with its callers.
package safefile
