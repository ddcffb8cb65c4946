// Package opened owns the test-only check, with Linux's inotify open
// events, of which paths a piece of code opened ([During]): a directory
// listed, a file read. It must not be imported outside tests, nor wait on
// the clock: a marker file opened last ends the events it reads.
package opened
