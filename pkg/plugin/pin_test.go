//go:build unix

package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// pinnedChain is chainFor's plugin with entry.sha256: pin added.
func pinnedChain(t *testing.T, pin string) (*Chain, string) {
	t.Helper()
	root := t.TempDir()
	path := externalPlugin(t, root, "ext", []string{"rewrite"}, onErrorVeto, 60000, pointPreDispatch)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b)+"  sha256: "+pin+"\n")
	a := assemble(t, root)
	if !a.Enabled("ext") {
		t.Fatalf("external plugin not enabled: %+v %v", a.Plugins, a.Warnings)
	}
	c := a.NewChain()
	t.Cleanup(func() { _ = c.Close() })
	return c, path
}

// entry.sha256 pins the hook program: the right digest runs it, another
// refuses it with the manifest, the expected and the actual digests.
func TestManifestSHA256Pin(t *testing.T) {
	b, err := os.ReadFile(testHookBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	good := hex.EncodeToString(sum[:])

	c, _ := pinnedChain(t, good)
	out, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "hello"}, nil)
	if err != nil || halt != nil || out["prompt"] != "hello [checked by testhook]" {
		t.Fatalf("pinned and matching: out %v halt %+v err %v", out, halt, err)
	}

	bad := strings.Repeat("ab", 32)
	c, manifest := pinnedChain(t, bad)
	_, halt, err = c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "hello"}, nil)
	if err != nil || halt == nil {
		t.Fatalf("a mismatching pin must refuse the plugin (on_error: veto): halt %+v err %v", halt, err)
	}
	for _, want := range []string{"entry.sha256 in " + manifest, "expected " + bad, "actual " + good, "was not started"} {
		if !strings.Contains(halt.Reason, want) {
			t.Fatalf("reason lacks %q:\n%s", want, halt.Reason)
		}
	}
}

// A malformed pin makes the manifest malformed: the plugin is skipped with
// a warning naming the file and the fix.
func TestManifestSHA256PinMalformed(t *testing.T) {
	root := t.TempDir()
	path := externalPlugin(t, root, "ext", []string{"rewrite"}, onErrorVeto, 60000, pointPreDispatch)
	b, _ := os.ReadFile(path)
	writeFile(t, path, string(b)+"  sha256: deadbeef\n")
	a := assemble(t, root)
	if a.Enabled("ext") {
		t.Fatal("a plugin with a malformed pin must not be enabled")
	}
	found := false
	for _, w := range a.Warnings {
		if w.File == path && strings.Contains(w.Message, `entry.sha256: "deadbeef" is not a sha256 digest: want 64 hex digits`) {
			found = true
		}
	}
	if !found {
		t.Fatalf("warnings %+v", a.Warnings)
	}
}
