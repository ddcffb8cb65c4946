package proc

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestTailKeepsTheEnd(t *testing.T) {
	tl := NewTail(8)
	tl.Write([]byte("abc"))
	if tl.String() != "abc" || tl.Lines() != "abc" {
		t.Fatalf("short: %q %q", tl.String(), tl.Lines())
	}
	tl.Write([]byte("de\nfghij"))
	if got := tl.String(); got != "de\nfghij"[len("de\nfghij")-8:] || len(got) != 8 {
		t.Fatalf("String = %q", got)
	}
	if got := tl.Lines(); got != "fghij" {
		t.Fatalf("Lines = %q, want the partial first line dropped", got)
	}
	tl.Write([]byte(strings.Repeat("x", 100))) // one write larger than the tail
	if got := tl.String(); got != strings.Repeat("x", 8) {
		t.Fatalf("big write: %q", got)
	}
	if tl.Lines() != "" {
		t.Fatalf("no whole line is left, Lines = %q", tl.Lines())
	}
}

func TestTailExactlyFullIsNotWrapped(t *testing.T) {
	tl := NewTail(4)
	tl.Write([]byte("a\nbc"))
	if tl.Lines() != "a\nbc" {
		t.Fatalf("Lines = %q", tl.Lines())
	}
}

func TestMinimalEnv(t *testing.T) {
	got := Env{Policy: EnvMinimal, Vars: Set(map[string]string{"HOME": "/other", "MY": "1"})}.Build([]string{"PATH=/bin", "SECRET_TOKEN=x", "LC_ALL=C", "HOME=/h", "=bad", "noequals"})
	want := []string{"HOME=/other", "LC_ALL=C", "MY=1", "PATH=/bin"}
	if !slices.Equal(got, want) {
		t.Fatalf("minimal env = %q, want %q", got, want)
	}
}

func TestFullEnvOverrides(t *testing.T) {
	t.Setenv("KITSOKI_PROC_TEST", "old")
	full := func(extra map[string]string) []string {
		return Env{Policy: EnvInherit, Vars: Set(extra)}.Build(os.Environ())
	}
	got := full(map[string]string{"KITSOKI_PROC_TEST": "new", "B_KITSOKI": "b"})
	if slices.Contains(got, "KITSOKI_PROC_TEST=old") || !slices.Contains(got, "KITSOKI_PROC_TEST=new") || !slices.Contains(got, "B_KITSOKI=b") {
		t.Fatalf("inherited env = %q", got)
	}
	if len(full(nil)) != len(os.Environ()) {
		t.Fatal("the inherited env with no edits is not the inherited environment")
	}
}

// Build: a parent's duplicate keeps its last value in the first place,
// edits apply in order, Prepend on an unset or empty variable is the value
// alone, and EnvInherit keeps the parent's order.
func TestEnvBuild(t *testing.T) {
	sep := string(os.PathListSeparator)
	parent := []string{"A=1", "PATH=/bin", "B=2", "A=3", "EMPTY="}
	got := Env{Policy: EnvInherit, Vars: []Var{
		{Key: "PATH", Value: "/self", Prepend: true},
		{Key: "LIB", Value: "/lib", Prepend: true},
		{Key: "EMPTY", Value: "/e", Prepend: true},
		{Key: "B", Value: "x"},
		{Key: "LIB", Value: "/first", Prepend: true},
	}}.Build(parent)
	want := []string{"A=3", "PATH=/self" + sep + "/bin", "B=x", "EMPTY=/e", "LIB=/first" + sep + "/lib"}
	if !slices.Equal(got, want) {
		t.Fatalf("Build = %q, want %q", got, want)
	}
	if got := (Env{Policy: EnvMinimal, Vars: Set(map[string]string{"Z": "1", "A": "2"})}).Build([]string{"PATH=/bin", "SECRET=s"}); !slices.Equal(got, []string{"A=2", "PATH=/bin", "Z=1"}) {
		t.Fatalf("minimal Build = %q", got)
	}
}
