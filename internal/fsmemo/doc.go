// Package fsmemo owns one run's memory of the file system's shape (the
// working directory, directory listings, what a stat of a path said and
// where a directory's symlinks lead), so that a run over many stories
// (kitsoki validate ./...) looks each of them up once. It must not read
// what files hold, decide what a path means to a story or write anything:
// its callers keep those.
//
// A [Memo] is made for one run and passed to what the run calls; it
// assumes the tree does not change during the run. A nil *Memo looks
// everything up afresh, so callers without one keep their behaviour.
package fsmemo
