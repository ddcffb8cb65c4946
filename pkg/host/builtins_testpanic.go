//go:build kitsoki_testpanic

package host

import "context"

// handlerTestPanic panics with its with: value: a handler bug, for the
// tests that check a panicking handler never takes a run down. Only a
// binary built with -tags kitsoki_testpanic has it.
const handlerTestPanic = "host.test.panic"

// registerTestHandlers registers the test-only handlers of this build.
func registerTestHandlers(b func(string, Handler, string)) {
	b(handlerTestPanic, HandlerFunc(func(_ context.Context, c *Call) (Result, error) {
		panic(c.Args["value"])
	}), "panics with its value (test builds only)")
}
