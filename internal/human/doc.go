// Package human owns how kitsoki prints quantities for people to read in
// its terminal reports ([Duration]). It must not decide where or whether
// they are printed, nor format anything a machine reads (JSON, traces):
// callers (cmd's run summary, pkg/flowtest's report) keep that.
package human
