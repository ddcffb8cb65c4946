package expr

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A template that includes itself, directly or through others, or a chain
// deeper than the cap, is refused with the chain named, instead of
// overflowing the Go stack (which killed the process, validate included).
func TestIncludeCyclesAreRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	self := write("self.md", `hello {% include "self.md" %}`)
	write("a.md", `A {% include "b.md" %}`)
	write("b.md", `B {% include 'a.md' %}`)
	for i := 0; i < 40; i++ {
		write(fmt.Sprintf("d%d.md", i), fmt.Sprintf(`{%% include "d%d.md" %%}`, i+1))
	}
	write("d40.md", "bottom")
	write("ok.md", `{% include "leaf.md" %} and {% include "leaf.md" %}`)
	write("leaf.md", "leaf")
	l := NewPongoLoader(dir)
	for _, tc := range []struct{ file, src, want string }{
		{file: self, want: "includes itself"},
		{file: filepath.Join(dir, "a.md"), want: "a.md -> " + filepath.Join(dir, "b.md")},
		{src: `{% include "a.md" %}`, want: "includes itself"},
		{file: filepath.Join(dir, "d0.md"), want: "more than 32 deep"},
	} {
		var err error
		if tc.file != "" {
			_, err = l.CompileFile(tc.file)
		} else {
			_, err = l.Compile(tc.src)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s%s: err = %v, want %q", tc.file, tc.src, err, tc.want)
		}
	}
	p, err := l.CompileFile(filepath.Join(dir, "ok.md"))
	if err != nil {
		t.Fatalf("a template including the same leaf twice is no cycle: %v", err)
	}
	if out, err := p.Render(Env{}); err != nil || out != "leaf and leaf" {
		t.Fatalf("render = %q, %v", out, err)
	}
}
