// Package storyload owns the story loading several packages' tests share:
// load a story and fail the test on any loader error. It must not be
// imported outside tests nor by pkg/story's own tests (it imports pkg/story),
// and it only loads: what a test checks in the story is the test's own.
package storyload
