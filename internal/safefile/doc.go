// Package safefile owns reading the files kitsoki is given ([ReadFile],
// [Open]) as regular files under a size cap, refusing devices, FIFOs,
// sockets and directories and oversize files ([ErrTooLarge]) before they
// are opened (a device may act on an open alone), and the one confinement
// of the files a story or fixture names ([Root]: a project root read
// through os.Root, so a path or symlink leaving it is [ErrOutsideRoot]),
// and the same cap on a stream with no size to check first ([ReadAtMost]:
// standard input, an HTTP answer).
// It must not parse what files hold, decide which directory is a story's
// root (pkg/story does) or write anything: its callers keep those.
//
// Stories, prompts, schemas, fixtures, cassettes, profiles and pins are read
// through it (a confined read through an os.Root: [Root], or
// [ReadRootFile] and [OpenRootFile] on a root its caller opened,
// [OpenRootDir] to list a directory in one, and [OpenDirRoot],
// [OpenSubRoot], [Root.OpenRoot] and [NewRootIn] to open one as a root,
// [WalkRoot] to walk a tree), so that /dev/zero cannot exhaust memory and a FIFO
// cannot hang a run. A Root's errors name
// the path as its caller gave it, never where a symlink leads.
package safefile
