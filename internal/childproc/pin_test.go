package childproc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

func fileDigest(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// A pinned program starts when its digest matches (in either case) and is
// refused, naming the file, the pin's place and both digests, when not.
func TestPinnedProgram(t *testing.T) {
	bin := rolesBin(t)
	good := fileDigest(t, bin)
	f := newClient(t, "requests", func(c *Config) { c.SHA256, c.PinWhere = strings.ToUpper(good), "entry.sha256 in m.yaml" })
	if got := mustCall(t, f.c, "hi"); got != "hi" {
		t.Fatalf("answer %q", got)
	}
	f.c.Close()

	bad := strings.Repeat("0", 64)
	f = newClient(t, "requests", func(c *Config) { c.SHA256, c.PinWhere = bad, "entry.sha256 in m.yaml" })
	_, err := call(context.Background(), f.c, "hi")
	e := mustFail(t, err, Start, bin, "entry.sha256 in m.yaml", "expected "+bad, "actual "+good, "update the pin")
	if e.Started {
		t.Fatal("a refused program must not have run")
	}
}

func TestCheckPin(t *testing.T) {
	for pin, ok := range map[string]bool{"": true, strings.Repeat("a", 64): true, strings.Repeat("A", 64): true,
		"abc": false, strings.Repeat("g", 64): false, "sha256:" + strings.Repeat("a", 64): false} {
		if err := CheckPin(pin); (err == nil) != ok {
			t.Errorf("CheckPin(%q) = %v", pin, err)
		}
	}
}
