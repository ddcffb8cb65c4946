// Package fetch owns kitsoki's pinned downloads ([Fetcher], [Pins]): the pin
// files, the user cache, resumable sha256-verified downloads under a
// cross-process lock, safe archive extraction and the Linux C++ runtime probe
// ([HostRuntime]). It must not know about agents, stories or processes
// (pkg/sidecar runs the server), print anything, or reach any host but the
// pinned URL or its mirror.
//
// In full, it owns kitsoki's pinned downloads: the pin files (embedded
// from pins/ plus a KITSOKI_PINS overlay), the user cache layout, resumable
// sha256-verified downloads with a cross-process lock per artifact, safe
// extraction of release archives, and the Linux libstdc++/glibc probe that
// decides whether the pinned C++ runtime shim is needed.
//
// The promise: a file in the cache is exactly the pinned bytes. Downloads go
// to a .part file next to their destination, are hashed while written, and
// are renamed into place only after the sha256 (and size, when pinned)
// match. A mismatch leaves nothing behind and names the artifact, the
// expected and the actual digest. A forced download keeps the verified
// file until its replacement has verified and is renamed over it; a
// download that fails before writing a byte leaves no .part.
//
// Cache layout (root: KITSOKI_CACHE_DIR, else the OS user cache dir +
// "kitsoki"):
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
//
// What it must not do: know about agents, stories or processes (pkg/sidecar
// runs the server), print anything (progress goes through a callback; the
// display lives in cmd/), or reach any host other than the pinned URL (or
// its mirror rewrite).
package fetch
