// Package panicked owns the one wording of a panic kitsoki caught ([Error],
// [New], [Logged]): the failure of the one call it happened in, naming that
// call, the part that panicked and what to send with the report. It must
// not decide where the stack goes (a trace, stderr: [Logged] writes it to
// the writer its caller names) or what the call's failure does next: its
// callers do.
package panicked
