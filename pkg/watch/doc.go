// Package watch owns `kitsoki test --watch`'s loop: file changes from a
// [Source] ([Open]: fsnotify events, or a [Poller] where the platform has
// none) gathered into batches, each batch run once after a quiet period
// ([Loop], timed by a [Clock] a test controls), and which targets a batch
// touches ([Affected]). It must not know what a story or a fixture is,
// run anything itself or print: cmd/test_watch.go says what a target is,
// what a run does and how it is shown.
package watch
