// Package human owns how kitsoki prints quantities for people to read in
// its terminal reports and messages ([Duration], [Size], [Plural]) and where
// long text is cut without splitting a character ([Clip], [RuneCut]). It must
// not decide where or whether they are printed, nor format anything a machine
// reads (JSON, traces): callers (cmd's run summary, pkg/flowtest's report,
// the size caps internal/safefile and internal/childproc name) keep that; a
// cut is only a bound, which pkg/trace also puts on the strings it keeps.
package human
