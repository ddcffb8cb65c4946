// Package pluginkit owns what a Go author imports to write a kitsoki agent
// plugin: the subprocess wire types ([Request], [Response], [SubEvent],
// [Error]) and [Serve], which speaks the contract on stdin/stdout. It must not
// import the rest of kitsoki: the wire format stays language-neutral and a
// plugin links only this package.
//
// The contract is JSON-RPC 2.0, one message a line, method agent.ask. The
// package imports only the standard library, so a plugin binary stays small;
// it is one implementation of the wire format, not its definition, but its
// [Request] is the one pkg/agent sends (agent.AskRequest is an alias). Serve
// keeps the protocol on the stdout it started with and sends later writes to
// stdout to stderr (stdout_*.go), so a stray print cannot break the stream.
// kitsoki validates every submission itself (seed 000 §5): a plugin only
// answers.
package pluginkit
