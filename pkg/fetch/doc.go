// Package fetch owns kitsoki's pinned downloads ([Fetcher], [Pins]): the pin
// files, the user cache, resumable sha256-verified downloads under a
// cross-process lock, safe archive extraction and the Linux C++ runtime probe
// ([HostRuntime]). It must not know about agents, stories or processes
// (pkg/sidecar runs the server), print anything, or reach any host but the
// pinned URL or its mirror and the hosts they redirect to ([checkRedirect]:
// any host, never from https down to http, at most 10 redirects).
//
// The pins are pins/ plus a $KITSOKI_PINS overlay; the mirror is
// $KITSOKI_MIRROR ([MirrorURL]); progress goes through a callback
// ([ProgressFunc]), displayed by cmd/.
//
// The promise: a file in the cache is exactly the pinned bytes. A download
// goes to a .part file next to its destination, hashed while written, and is
// renamed into place only once sha256 (and size, when pinned) match; a
// mismatch leaves nothing behind and names the artifact and both digests. A
// forced download keeps the verified file until its replacement has
// verified; a download that fails before its first byte leaves no .part.
// download.go holds a transfer's requests, retries and stall timer;
// download_single.go one stream, download_parallel.go ranged parts hashed
// in order, resume.go the .part.json state that lets either resume.
// A cache shared with the existing kitsoki engine works both ways (adopt.go,
// verifiedInPlace in ensure.go). [Fetcher.Orphans] and [Fetcher.Prune] find
// and remove what no pin names any more, nothing outside the layout below.
// Offline mode ([Fetcher.Offline], $KITSOKI_OFFLINE; offline.go) serves the
// cache alone: an artifact it lacks fails before any request.
//
// Cache layout ([ResolveCacheDir]: $KITSOKI_CACHE_DIR, else the OS user cache
// dir + "kitsoki"):
//
//	bin/llama-<sha12>/        one flat directory per llama-server release
//	                          (binary, libraries, SONAME symlinks, shim)
//	bin/llama-<sha12>.json    record of the extracted files and digests
//	archives/<id>-<sha12>.<format>  verified release and shim archives
//	models/<id>.gguf          model weights
//	models/<id>.gguf.json     record (size, mtime, digest) of a verified file
//	*.part, *.part.json       an interrupted download and its resume state
//	*.lock                    cross-process lock of one artifact (removed by
//	                          its holder on release, except on Windows)
package fetch
