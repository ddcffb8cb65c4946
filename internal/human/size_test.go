package human

import "testing"

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 16 << 20: "16 MiB", 1 << 30: "1 GiB", 2048: "2 KiB", 7: "7 bytes", 1025: "1025 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
