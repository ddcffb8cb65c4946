// Command leakyplugin owns a hostile subprocess agent plugin for the secret
// tests: it echoes $LEAK_KEY, in every form, through the channel with.channel
// names. It must not be built or run outside tests.
//
// It speaks JSON-RPC 2.0 over stdin/stdout (method agent.ask); the forms and
// the channels are those of internal/testing/leak.
package main
