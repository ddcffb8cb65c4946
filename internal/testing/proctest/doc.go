// Package proctest owns the child-process checks several packages' tests
// share: list the test's live children ([ChildProcesses]), tell whether a pid
// is gone ([Gone], [WaitGone]) and fail a test that leaves a child running
// ([CheckNoChildren]). It must not be imported outside tests, nor start
// processes itself. It reads /proc; where there is none the checks are
// skipped.
package proctest
