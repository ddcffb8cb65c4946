// Package scratchdir owns the temporary directories kitsoki makes for one
// run and must leave nothing of ([Make]), and the sweep that removes those
// a killed process could not ([Sweep]). It must not decide what goes in a
// directory or when a run is over: its callers write there and call the
// remove function Make returns.
package scratchdir
