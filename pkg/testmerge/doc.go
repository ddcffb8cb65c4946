// Package testmerge owns the inputs of kitsoki test merge: each file read
// once within a bound and told apart as a JSON coverage profile
// ([coverage.Profile]) or a --json report of one shard
// ([flowtest.Report], checked as unedited and given once), and the
// shards' reports merged in file order ([Inputs.Report]). It must not
// write or print: cmd/test_merge.go writes the merged report (through
// pkg/testrun) and profile.
//
// It is its own package because pkg/coverage's tests run flow fixtures
// through pkg/flowtest, so neither of those two may import the other.
package testmerge
