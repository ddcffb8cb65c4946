// Package standintest owns building the llama-server STAND-IN
// (kitsoki/internal/testing/llamastandin) with [Build] and packing it into a
// llama.cpp-like release archive ([ReleaseArchive]) for tests. It must not be
// imported outside tests.
package standintest
