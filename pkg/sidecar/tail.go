package sidecar

// tailSize is how much of the server's output is kept for error messages.
const tailSize = 8 << 10
