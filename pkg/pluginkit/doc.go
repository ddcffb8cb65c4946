// Package pluginkit owns what a Go author imports to write a kitsoki agent
// plugin: the subprocess wire types ([Request], [Response], [SubEvent],
// [Error]) and [Serve], which speaks the contract on stdin/stdout. It must not
// import the rest of kitsoki: the wire format stays language-neutral and a
// plugin links only this package.
//
// In full, it is what a Go author imports to write a kitsoki agent
// plugin: the subprocess wire types and Serve, which speaks the contract
// (JSON-RPC 2.0, one message a line, method agent.ask) on stdin/stdout.
//
// It imports only the standard library, so a plugin binary stays small, and
// it must not grow kitsoki's own dependencies: the wire format is language
// neutral and this is one implementation of it, not a definition. kitsoki
// validates every submission itself (seed 000 §5); a plugin only answers.
package pluginkit
