// Package childproc owns the one client kitsoki speaks to a long-lived
// child process through: a request is one JSON line on the child's stdin, its
// answer the next line on the child's stdout ([Client.Call]), with one
// framing ('\n'-terminated lines of at most [MaxFrame] bytes), one redacting
// stderr tail ([Stderr]) and one error vocabulary ([Error], [Failure]). It
// must not know any protocol's messages (the caller encodes each request and
// decodes each answer) and must not start a process except through
// internal/proc.
//
// The lifecycle every user gets:
//
//   - the child starts on the first call and is reused; one call is in
//     flight at a time, and a caller waiting its turn honours its context;
//   - a child that died between calls is replaced before the next request
//     is written;
//   - the request is written while the answer is awaited, so a child that
//     answers before reading all of a large request cannot deadlock;
//   - end of stdout, a partial last line, a line over [MaxFrame] or one
//     that would take over jsoncost's limit once decoded (refused before
//     the caller's decoder reads it), a failed
//     write, an answer the caller's decoder marks [Fatal], the per-call
//     [Config.Timeout] and the caller's context all end the child (its whole
//     process group) and fail the call with an [*Error]; the next call
//     starts a new child. An answer the child already wrote when the
//     timeout fires or the context ends is still the call's answer, and so
//     is one it wrote before it exited or after it stopped reading its
//     stdin (the failed write of the request does not win). An answer
//     rejected without [Fatal] keeps the child;
//   - a child that exits before answering fails the call at once, even
//     while a process it started still holds its stdout open: its group
//     is killed, and a process outside the group (setsid) gets the exit
//     grace before the call fails and the reader lets go of the pipe;
//   - with [Config.Stray] set, a line the child writes while no call
//     waits goes to it, never to the next call: before a request is
//     written, every byte the child wrote until then is accounted for (on
//     Linux the pipe is asked what it still holds: barrier.go), so a line
//     still in the pipe or the reader's buffer is stray too, and part of a
//     line fails the call unsent ([Protocol]) and ends the child; a
//     decoder may [Skip] a line that is not its call's answer and go on
//     waiting;
//   - with [Config.SHA256] the program file is hashed before every start
//     and a different digest refuses it;
//   - [Client.Close] runs the policy's stop sequence; a call in flight
//     fails with [Closed].
//
// Each stderr line is logged at the level it names (a [WARN]/[ERROR] tag,
// a JSON line's level; error from a "panic:" line on; debug otherwise).
// Everything the child wrote that reaches an error or the log passes
// [Config.Redact] first, and is cut to a bounded size ([Snippet], the
// stderr tail).
package childproc
