// Package testrun owns what kitsoki test decides between its flags and the
// flow runner: the run's [Plan] (the stories its arguments name
// ([Plan.SetApps]), the fixture glob, --run and --shard) with the
// fixtures it finds, the stories loaded before anything runs ([Load]),
// the temporary trace directory --trace-out needs ([TraceDir]), and where
// the results go ([Outputs]: the --json and --junit reports, the
// --trace-out copy, the text; [WriteNotRunJUnit]: the --junit report of a
// run refused before its first fixture). Its messages name the flags, as they are
// the command's words.
//
// It must not define flags or choose exit codes: every error it returns
// is a usage or environment error, which cmd reports with exit 2 (a
// [LoadError] with the story's or the profile's diagnostics). It runs no
// fixture itself (pkg/flowtest does) and merges no reports
// (pkg/testmerge).
package testrun
