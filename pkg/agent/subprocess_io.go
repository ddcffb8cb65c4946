package agent

import "kitsoki/internal/childproc"

// maxFrameBytes bounds one answer of every transport: a subprocess answer
// line (internal/childproc's frame cap), the claude CLI's stdout and
// answer file, an mcp_http SSE event. A larger answer is an error, never an
// unbounded read.
const maxFrameBytes = childproc.MaxFrame
