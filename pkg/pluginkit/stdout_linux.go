package pluginkit

import "syscall"

// dupOnto makes descriptor to refer to what from refers to.
func dupOnto(from, to int) error { return syscall.Dup3(from, to, 0) }
