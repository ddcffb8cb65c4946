// Package human owns how kitsoki prints quantities for people to read in
// its terminal reports and messages ([Duration], [Size], [Plural]) and how long
// text is cut for them on a rune boundary ([Clip], [RuneCut]). It must not decide where or whether
// they are printed, nor format anything a machine reads (JSON, traces):
// callers (cmd's run summary, pkg/flowtest's report, the size caps
// internal/safefile and internal/childproc name) keep that.
package human
