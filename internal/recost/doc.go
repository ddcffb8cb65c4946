// Package recost bounds the time one match of a regular expression from a
// repository (a fixture's expect_view_matches or content_matches, a
// cassette's phase_from or url_pattern) may take, and what compiling one
// may cost ([Compile], [Budget]); it runs no pattern for anyone. Go's regexp runs in time proportional to the
// text times the instructions the pattern compiles to, and a match cannot
// be interrupted: neither --timeout nor a context reaches it, so a short
// hostile pattern against a long text could hold kitsoki test --sandbox
// far past its timeout. The bound is on the worst case; a pattern with a
// literal prefix is usually far faster, but a hostile one is not.
package recost
