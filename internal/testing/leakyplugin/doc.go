// Command leakyplugin owns a hostile subprocess agent plugin for the secret
// tests: it echoes $LEAK_KEY, in every form, through the channel with.channel
// names. It must not be built or run outside tests.
//
// In full, it is a hostile subprocess agent plugin for kitsoki's
// secret tests: JSON-RPC 2.0 over stdin/stdout (method agent.ask), it
// echoes the secret in $LEAK_KEY, in every form, through the channel the
// request's with.channel names (internal/testing/leak).
package main
