//go:build linux

package proc

import (
	"syscall"
	"unsafe"
)

// exitedUnreaped blocks until the child pid has exited and reports true,
// leaving it unreaped: its zombie still holds its pid, and so its group's
// id, until exec.Cmd.Wait reaps it. false when waitid cannot tell.
func exitedUnreaped(pid int) bool {
	const pPID = 1     // idtype_t P_PID
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if e != syscall.EINTR {
			return e == 0
		}
	}
}
