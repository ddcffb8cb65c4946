// Package echo owns the answer logic shared by kitsoki's test plugins
// (echoagent, mcpecho and the in-process conformance agent), faults included.
// It must not import kitsoki/pkg/agent: it speaks the wire format with its own
// types, as an independent plugin author would, so the tests check the wire
// and not a shared Go struct.
//
// A request selects a fault with the string with.fault, or gets the host's
// default ([Fault]). Faults of the answer itself are built here ([Answer]);
// faults of the host process or server (crash, hang, late, garbage, drop,
// http500, ...) are acted out by each host program and listed in its doc.
package echo
