package fetch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fixture(t *testing.T, name, content string) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMaxVersionParsers(t *testing.T) {
	for in, want := range map[string]int{
		"":                                    -1,
		"GLIBCXX_3.4\x00":                     -1,
		"GLIBCXX_3.4.21\x00GLIBCXX_3.4.29":    29,
		"GLIBCXX_3.4.30\x00GLIBCXX_3.4.9\x00": 30,
		"GLIBCXX_3.5.40\x00GLIBCXX_3.4.19":    19,
		"CXXABI_1.3.13 GLIBCXX_3.4.32":        32,
	} {
		if got := maxGLIBCXXMinor([]byte(in)); got != want {
			t.Errorf("maxGLIBCXXMinor(%q) = %d, want %d", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"": "",
		"GLIBC_2.2.5\x00GLIBC_2.34\x00GLIBC_PRIVATE": "2.34",
		"GLIBC_2.17 GLIBCXX_3.4.30 GLIBC_2.28":       "2.28",
	} {
		if got := maxGlibc([]byte(in)); got != want {
			t.Errorf("maxGlibc(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestProbeFirstReadableCandidateThroughSymlink(t *testing.T) {
	real := fixture(t, "libstdc++.so.6.0.29", "junk GLIBCXX_3.4.28 GLIBCXX_3.4.29 junk")
	link := filepath.Join(t.TempDir(), "libstdc++.so.6")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	libc := fixture(t, "libc.so.6", "GLIBC_2.2.5 GLIBC_2.34 GLIBC_PRIVATE")
	rt := HostProbe{
		LibstdcxxPaths: []string{filepath.Join(t.TempDir(), "missing"), link},
		LibcPaths:      []string{libc},
	}.Probe()
	if rt.GLIBCXXMinor != 29 || rt.LibstdcxxPath != link || rt.Glibc != "2.34" {
		t.Fatalf("%+v", rt)
	}
	if rt := (HostProbe{}).Probe(); rt.GLIBCXXMinor != -1 || rt.Glibc != "" {
		t.Fatalf("empty probe %+v", rt)
	}
}

func TestDecide(t *testing.T) {
	a := &Artifact{Key: "linux/amd64", Release: "b9444", Requires: &Requires{Glibc: "2.34", GLIBCXXMinor: 30}}
	cases := []struct {
		rt       HostRuntime
		shim     bool
		errMatch string
	}{
		{HostRuntime{GLIBCXXMinor: 33, Glibc: "2.39"}, false, ""},
		{HostRuntime{GLIBCXXMinor: 30, Glibc: "2.35"}, false, ""},
		{HostRuntime{GLIBCXXMinor: 29, Glibc: "2.34", LibstdcxxPath: "/lib64/libstdc++.so.6"}, true, ""},
		{HostRuntime{GLIBCXXMinor: -1, Glibc: ""}, true, ""},
		{HostRuntime{GLIBCXXMinor: 25, Glibc: "2.28", LibcPath: "/lib64/libc.so.6"}, false, "shim cannot replace the C library"},
		{HostRuntime{GLIBCXXMinor: 33, Glibc: "2.9"}, false, "endpoint: mode"},
	}
	for _, c := range cases {
		d, err := c.rt.Decide(a)
		if c.errMatch != "" {
			if err == nil || !strings.Contains(err.Error(), c.errMatch) || !strings.Contains(err.Error(), "endpoint: mode") {
				t.Errorf("%+v: err = %v", c.rt, err)
			}
			continue
		}
		if err != nil || d.NeedShim != c.shim {
			t.Errorf("%+v: %+v %v", c.rt, d, err)
		}
	}
	if d, err := (HostRuntime{GLIBCXXMinor: -1}).Decide(&Artifact{}); err != nil || d.NeedShim {
		t.Fatal("darwin-like pin without requirements needs nothing")
	}
}
