// Command childroles owns the child processes [kitsoki/internal/childproc]'s
// tests start for real: the role in $KITSOKI_CHILDPROC_TEST_ROLE (and each
// request line) picks how it answers, crashes, hangs or leaves a grandchild.
// It must not be built or run outside tests.
//
// It is a program of its own, built once per test run without the race
// detector, rather than the race-instrumented test binary run again: each
// start of that paid the race runtime's setup for a child that only echoes.
package main
