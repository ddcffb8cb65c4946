// Package echo owns the answer logic shared by kitsoki's test plugins
// (echoagent, mcpecho and the in-process conformance agent), faults included.
// It must not import kitsoki/pkg/agent: it speaks the wire format with its own
// types, as an independent plugin author would.
//
// In full, it is the answer logic shared by kitsoki's test plugins: the
// subprocess plugin program (../echoagent), the MCP test server (../mcpecho)
// and the in-process agent of the conformance suite. It deliberately does not
// import kitsoki/pkg/agent: it speaks the wire format with its own types, the
// way an independent plugin author would, so the tests check the wire and
// not a shared Go struct.
//
// A request selects a fault with the string with.fault (or the host's
// default fault). Faults that concern the answer itself are built here;
// faults that concern the host process or server (crash, hang, late,
// garbage, drop, http500, ...) are acted out by each host program and listed
// in its own doc.
package echo
