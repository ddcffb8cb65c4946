package story

import (
	"path"
	"strconv"
	"strings"
	"testing"
)

// FuzzResolvePath: a transition target that climbs ("../x", "../../a/b")
// resolves as path.Join resolves the same path under the base's
// directories, and climbs above the top level exactly when path.Join
// leaves a sentinel root above the base; an absolute target is its "/"
// turned to "."; Climbs counts the leading "../" segments (and a final
// ".."); a refusal names the target on one line.
func FuzzResolvePath(f *testing.F) {
	for _, s := range [][2]string{{"a.b", "../c"}, {"a.b", "../../c"}, {"a.b", "../../../c"}, {"a.b", "..c"}, {"a.b.c", "../.././d/"},
		{"", ".."}, {"a", "../"}, {"a.b", "c/d"}, {"a.b", "/"}, {"a.b", "./../x"}, {"p.q", "..//../r/../s"}, {"a", " ../b "}, {"a.b", ""}, {"a.b", "."}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, base, target string) {
		if base != "" {
			for _, seg := range strings.Split(base, ".") {
				if seg == "" || strings.Contains(seg, "/") {
					return // no state path
				}
			}
		}
		dirs := strings.ReplaceAll(base, ".", "/")
		got, ok := ClimbPath(base, target)
		if strings.HasPrefix(target, "..") {
			want := strings.ReplaceAll(strings.TrimPrefix(path.Join("/", dirs, target), "/"), "/", ".")
			sentinel := path.Join("/\x00root", dirs, target)
			wantOK := sentinel == "/\x00root" || strings.HasPrefix(sentinel, "/\x00root/")
			if got != want || ok != wantOK {
				t.Fatalf("ClimbPath(%q, %q) = %q, %v; path.Join reads %q, %v", base, target, got, ok, want, wantOK)
			}
		} else if got != strings.ReplaceAll(target, "/", ".") || !ok {
			t.Fatalf("ClimbPath(%q, %q) = %q, %v for an absolute target", base, target, got, ok)
		}
		k, rest := 0, target
		for strings.HasPrefix(rest, "../") {
			k, rest = k+1, rest[3:]
		}
		if rest == ".." {
			k++
		}
		if n := Climbs(target); n != k {
			t.Fatalf("Climbs(%q) = %d, want %d", target, n, k)
		}
		r, err := ResolvePath(base, target)
		if err != nil {
			if !strings.Contains(err.Error(), strconv.Quote(target)) || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("refusal %q does not name %q on one line", err, target)
			}
			return
		}
		if t := strings.TrimSpace(target); t == "" || t == "." {
			got = base
		} else {
			got, _ = ClimbPath(base, t)
		}
		if r != got {
			t.Fatalf("ResolvePath(%q, %q) = %q, want %q", base, target, r, got)
		}
	})
}
