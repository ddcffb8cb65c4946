package expr

import (
	"sync"
	"testing"
)

// Pooled compile configurations are safe under concurrent compiles and
// give the same results as fresh ones (a guard stays a guard).
func TestConcurrentCompilesShareConfigs(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if _, err := CompileGuard("world.n > 1 && len(world.xs) == 0"); err != nil {
					t.Error(err)
				}
				if _, err := CompileGuard("1 + 2"); err == nil {
					t.Error("a non-bool guard compiled")
				}
				if _, err := CompileExpr("world.a ?? 'x'"); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}
