// Package envflag reads the on/off environment variables kitsoki takes
// (KITSOKI_SANDBOX, KITSOKI_OFFLINE) one way: [Parse]. It owns the words,
// not the messages: each caller names its variable in its own error.
package envflag
