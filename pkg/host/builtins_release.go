//go:build !kitsoki_testpanic

package host

// registerTestHandlers registers nothing: a release build has no
// test-only handlers (see builtins_testpanic.go).
func registerTestHandlers(func(string, Handler, string)) {}
