// Package standintest owns building the llama-server STAND-IN ([BuildTo]) and
// packing it into a llama.cpp-like release archive for tests. It must not be
// imported outside tests.
package standintest
