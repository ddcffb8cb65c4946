//go:build !unix

package proc

// groupGuard has no sentinel where there are no process groups.
type groupGuard struct{}

func guardGroup(int) *groupGuard { return nil }

func (*groupGuard) release() {}
