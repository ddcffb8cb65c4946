// Package standintest owns building the llama-server STAND-IN ([BuildTo]) and
// packing it into a llama.cpp-like release archive for tests. It must not be
// imported outside tests.
//
// In full, it builds the llama-server STAND-IN
// (kitsoki/internal/testing/llamastandin) for tests, and packs it into a
// llama.cpp-like release archive. Only tests import it.
package standintest
