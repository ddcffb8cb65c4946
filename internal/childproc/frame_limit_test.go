package childproc

import (
	"testing"

	"kitsoki/pkg/pluginkit"
)

// TestMaxFrameIsPluginkits: one size limit both ways. kitsoki reads a
// child's answer line up to MaxFrame, and pluginkit's Serve (the child side
// a Go plugin links, which must not import kitsoki's internals) reads a
// request line up to its own copy, pluginkit.MaxFrame: a change to one
// alone would make a plugin refuse a request kitsoki thinks in bounds, or
// kitsoki refuse an answer the plugin thinks in bounds.
func TestMaxFrameIsPluginkits(t *testing.T) {
	if MaxFrame != pluginkit.MaxFrame {
		t.Fatalf("childproc.MaxFrame = %d, pluginkit.MaxFrame = %d: keep the two equal", MaxFrame, pluginkit.MaxFrame)
	}
}
