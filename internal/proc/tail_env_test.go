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
	got := MinimalEnv([]string{"PATH=/bin", "SECRET_TOKEN=x", "LC_ALL=C", "HOME=/h", "=bad", "noequals"}, map[string]string{"HOME": "/other", "MY": "1"})
	want := []string{"HOME=/other", "LC_ALL=C", "MY=1", "PATH=/bin"}
	if !slices.Equal(got, want) {
		t.Fatalf("MinimalEnv = %q, want %q", got, want)
	}
}

func TestFullEnvOverrides(t *testing.T) {
	t.Setenv("KITSOKI_PROC_TEST", "old")
	got := FullEnv(map[string]string{"KITSOKI_PROC_TEST": "new", "B_KITSOKI": "b"})
	if slices.Contains(got, "KITSOKI_PROC_TEST=old") || !slices.Contains(got, "KITSOKI_PROC_TEST=new") || !slices.Contains(got, "B_KITSOKI=b") {
		t.Fatalf("FullEnv = %q", got)
	}
	if len(FullEnv(nil)) != len(os.Environ()) {
		t.Fatal("FullEnv(nil) is not the inherited environment")
	}
}
