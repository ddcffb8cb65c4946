package fetch

import (
	"fmt"
	"strconv"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
)

// HostProbe says where to look for the system C and C++ runtimes. The
// first readable candidate of each list wins (symlinks are followed).
// Tests point it at fixture files.
type HostProbe struct {
	LibstdcxxPaths []string
	LibcPaths      []string
}

// HostRuntime is what a probe found. GLIBCXXMinor is -1 and Glibc empty
// when nothing readable was found.
type HostRuntime struct {
	LibstdcxxPath string
	GLIBCXXMinor  int
	LibcPath      string
	Glibc         string // highest GLIBC_2.N symbol version node, e.g. "2.34"
}

// defaultHostProbe lists the usual places of libstdc++.so.6 and libc.so.6
// on glibc Linux distributions (RHEL/Fedora lib64, Debian multiarch, Arch).
func defaultHostProbe() HostProbe {
	return HostProbe{
		LibstdcxxPaths: []string{
			"/lib64/libstdc++.so.6",
			"/usr/lib64/libstdc++.so.6",
			"/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
			"/lib/x86_64-linux-gnu/libstdc++.so.6",
			"/usr/lib/aarch64-linux-gnu/libstdc++.so.6",
			"/usr/lib/libstdc++.so.6",
		},
		LibcPaths: []string{
			"/lib64/libc.so.6",
			"/usr/lib64/libc.so.6",
			"/lib/x86_64-linux-gnu/libc.so.6",
			"/usr/lib/x86_64-linux-gnu/libc.so.6",
			"/usr/lib/aarch64-linux-gnu/libc.so.6",
			"/usr/lib/libc.so.6",
		},
	}
}

// maxProbeBytes bounds how much of a library the probe reads.
const maxProbeBytes = 64 << 20

// Probe reads the candidates and returns the highest GLIBCXX_3.4.N and
// GLIBC_2.N version strings found.
func (h HostProbe) Probe() HostRuntime {
	rt := HostRuntime{GLIBCXXMinor: -1}
	if p, data := firstReadable(h.LibstdcxxPaths); p != "" {
		rt.LibstdcxxPath, rt.GLIBCXXMinor = p, maxGLIBCXXMinor(data)
	}
	if p, data := firstReadable(h.LibcPaths); p != "" {
		rt.LibcPath, rt.Glibc = p, maxGlibc(data)
	}
	return rt
}

func firstReadable(paths []string) (string, []byte) {
	for _, p := range paths {
		data, err := safefile.ReadFile(p, maxProbeBytes) // follows symlinks; a FIFO is refused, not waited on
		if err != nil {
			continue
		}
		return p, data
	}
	return "", nil
}

var (
	glibcxxRe = &lazyre.Regexp{Expr: `GLIBCXX_3\.4\.([0-9]+)`}
	glibcRe   = &lazyre.Regexp{Expr: `GLIBC_2\.([0-9]+)`}
)

// maxGLIBCXXMinor returns the highest N of the GLIBCXX_3.4.N strings in a
// libstdc++ image, or -1 when there is none. GLIBCXX_3.4 alone and other
// major versions are ignored.
func maxGLIBCXXMinor(data []byte) int { return maxMinor(glibcxxRe, data) }

// maxGlibc returns the highest GLIBC_2.N version node in a libc image as
// "2.N", or "" when there is none. Binaries need symbol version nodes, so
// the highest node is what a host can offer.
func maxGlibc(data []byte) string {
	if best := maxMinor(glibcRe, data); best >= 0 {
		return "2." + strconv.Itoa(best)
	}
	return ""
}

// maxMinor is the highest number re's group matches in data (below 1000),
// or -1.
func maxMinor(re *lazyre.Regexp, data []byte) int {
	best := -1
	for _, m := range re.FindAllSubmatch(data, -1) {
		if n, err := strconv.Atoi(string(m[1])); err == nil && n > best && n < 1000 {
			best = n
		}
	}
	return best
}

// parseVersion2 parses "MAJOR.MINOR".
func parseVersion2(s string) (int, int, bool) {
	a, b, ok := strings.Cut(s, ".")
	if !ok {
		return 0, 0, false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || x < 0 || y < 0 {
		return 0, 0, false
	}
	return x, y, true
}

// versionLess reports a < b for "MAJOR.MINOR" strings.
func versionLess(a, b string) bool {
	ax, ay, _ := parseVersion2(a)
	bx, by, _ := parseVersion2(b)
	return ax < bx || (ax == bx && ay < by)
}

// RuntimeDecision is what the probe means for one llama-server pin.
type RuntimeDecision struct {
	NeedShim bool
	Reason   string
}

// Decide applies a pin's requirements to a probed host: an error when the
// glibc is too old (the shim cannot help), NeedShim when libstdc++ is too
// old or unknown.
func (rt HostRuntime) Decide(a *Artifact) (RuntimeDecision, error) {
	if a.Requires == nil {
		return RuntimeDecision{}, nil
	}
	if a.Requires.Glibc != "" && rt.Glibc != "" && versionLess(rt.Glibc, a.Requires.Glibc) {
		return RuntimeDecision{}, fmt.Errorf("llama-server %s (%s) needs glibc %s but this host offers glibc %s (%s): the libstdc++ shim cannot replace the C library; use endpoint: mode with a llama-server built for this host",
			a.Release, a.Key, a.Requires.Glibc, rt.Glibc, rt.LibcPath)
	}
	if a.Requires.GLIBCXXMinor > 0 && rt.GLIBCXXMinor < a.Requires.GLIBCXXMinor {
		found := "no readable libstdc++.so.6"
		if rt.GLIBCXXMinor >= 0 {
			found = fmt.Sprintf("GLIBCXX_3.4.%d in %s", rt.GLIBCXXMinor, rt.LibstdcxxPath)
		}
		return RuntimeDecision{NeedShim: true, Reason: fmt.Sprintf("needs GLIBCXX_3.4.%d, host has %s", a.Requires.GLIBCXXMinor, found)}, nil
	}
	return RuntimeDecision{}, nil
}
