package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A path an operator names that leads (here through a symlink) to a file
// that is no trace, such as /etc/passwd, is said to be no trace by every
// trace command, without quoting a byte of the file ("invalid character
// 'r'" told the first letter of /etc/passwd).
func TestTraceNotATraceQuotesNothing(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "passwd")
	if err := os.WriteFile(secret, []byte("root:x:0:0:root:/root:/bin/bash\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "t.jsonl")
	if err := os.Symlink(secret, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	for _, sub := range []string{"show", "verify", "calls", "stats", "export"} {
		out, errOut, code := trRun(t, "", "trace", sub, link)
		all := out + errOut
		if code != exitFinding || !strings.Contains(all, "t.jsonl:1: line 1 is not valid JSON: the file is not a kitsoki trace") {
			t.Errorf("trace %s: exit %d\n%s", sub, code, all)
		}
		if strings.Contains(all, "'r'") || strings.Contains(all, "root") {
			t.Errorf("trace %s quotes the file: %s", sub, all)
		}
	}
}
