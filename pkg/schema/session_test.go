package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
)

// TestSessionReadsEachFileOnce: ReadFile and Compile through one Session
// share the bytes read first; a file changed meanwhile is not read again.
func TestSessionReadsEachFileOnce(t *testing.T) {
	first := `{"type":"object","required":["a"]}`
	dir := story(t, map[string]string{"schemas/v.json": first})
	s := NewCompiler(dir).Session()
	defer s.Close()
	raw, err := readFile(s.c, s.files, "schemas/v.json")
	if err != nil || string(raw) != first {
		t.Fatalf("ReadFile = %q, %v", raw, err)
	}
	mustWrite(t, dir, "schemas/v.json", `{"type":"string"}`)
	sc, err := s.Compile("schemas/v.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(sc.Raw) != first {
		t.Fatalf("Raw = %q, want the bytes ReadFile returned %q", sc.Raw, first)
	}
	if sc.Validate(map[string]any{"a": 1.0}) != nil {
		t.Fatal("the schema compiled is not the one first read")
	}
	// Without a session every call reads the file.
	if raw, _ := readFile(NewCompiler(dir), nil, "schemas/v.json"); string(raw) != `{"type":"string"}` {
		t.Fatalf("Compiler.ReadFile = %q", raw)
	}
}

// TestSessionReadsRefsOnce: a file referenced by two schemas of one
// session is read once: both see the same bytes.
func TestSessionReadsRefsOnce(t *testing.T) {
	dir := story(t, map[string]string{
		"schemas/a.json":      `{"$ref":"defs/n.json"}`,
		"schemas/b.json":      `{"$ref":"defs/n.json"}`,
		"schemas/defs/n.json": `{"type":"number"}`,
	})
	s := NewCompiler(dir).Session()
	defer s.Close()
	if _, err := s.Compile("schemas/a.json"); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, dir, "schemas/defs/n.json", `{"type":"string"}`)
	b, err := s.Compile("schemas/b.json")
	if err != nil {
		t.Fatal(err)
	}
	if b.Validate(1.0) != nil || !bytes.Contains(b.Bundled, []byte(`"number"`)) {
		t.Fatalf("b.json did not use the bytes of defs/n.json read for a.json: %s", b.Bundled)
	}
}

// TestSessionMatchesCompiler: through a Session every outcome (schema,
// bundle, error text) is the one Compiler.Compile gives, for the plain
// files the session reads directly and for everything it leaves to the
// os.Root (subdirectories, symlinks in and out, missing, non-regular and
// oversize files).
func TestSessionMatchesCompiler(t *testing.T) {
	outside := t.TempDir()
	mustWrite(t, outside, "x.json", `{}`)
	dir := story(t, map[string]string{
		"schemas/ok.json":         verdictSchema,
		"schemas/sub/ok.json":     `{"$ref":"../ok.json"}`,
		"schemas/toSub.json":      `{"properties":{"a":{"$ref":"sub/ok.json"}}}`,
		"schemas/bad.json":        `{"type":`,
		"schemas/badtype.json":    `{"type":"strin"}`,
		"schemas/dir/x.json":      `{}`,
		"schemas/refdir.json":     `{"$ref":"dir"}`,
		"schemas/missingref.json": `{"$ref":"nope.json"}`,
		"schemas/uselink.json":    `{"$ref":"link.json"}`,
		"schemas/useinlink.json":  `{"$ref":"inlink.json"}`,
		"schemas/empty.json":      ``,
	})
	must(t, os.Symlink(filepath.Join(outside, "x.json"), filepath.Join(dir, "schemas", "link.json")))
	must(t, os.Symlink("ok.json", filepath.Join(dir, "schemas", "inlink.json")))
	must(t, os.Symlink(outside, filepath.Join(dir, "schemas", "linkdir")))
	big := make([]byte, safefile.Story+1)
	big[0] = '{'
	must(t, os.WriteFile(filepath.Join(dir, "schemas", "big.json"), big, 0o644))
	paths := []string{
		"schemas/ok.json", "schemas/sub/ok.json", "schemas/toSub.json", "schemas/bad.json",
		"schemas/badtype.json", "schemas/dir", "schemas/refdir.json", "schemas/missingref.json",
		"schemas/uselink.json", "schemas/useinlink.json", "schemas/link.json", "schemas/inlink.json",
		"schemas/linkdir/x.json", "schemas/nope.json", "schemas/empty.json", "schemas/big.json",
		"schemas/..", "schemas/.", "schemas", filepath.Join(dir, "schemas", "ok.json"),
	}
	s := NewCompiler(dir).Session()
	defer s.Close()
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			want, werr := NewCompiler(dir).Compile(p)
			got, gerr := s.Compile(p)
			if errText(werr) != errText(gerr) {
				t.Fatalf("Session.Compile: %v\nCompiler.Compile: %v", gerr, werr)
			}
			if (want == nil) != (got == nil) || want != nil && (!bytes.Equal(want.Raw, got.Raw) || !bytes.Equal(want.Bundled, got.Bundled) || want.Path != got.Path) {
				t.Fatalf("Session.Compile = %+v, Compiler.Compile = %+v", got, want)
			}
			wraw, werr := readFile(NewCompiler(dir), nil, p)
			graw, gerr := readFile(s.c, s.files, p)
			if errText(werr) != errText(gerr) || !bytes.Equal(wraw, graw) {
				t.Fatalf("Session.ReadFile = %d bytes, %v\nCompiler.ReadFile = %d bytes, %v", len(graw), gerr, len(wraw), werr)
			}
		})
	}
}

// TestSessionNoSchemasDir: the message for a story without schemas/ is the
// Compiler's, and a Session reused after Close reads afresh.
func TestSessionNoSchemasDir(t *testing.T) {
	dir := t.TempDir()
	s := NewCompiler(dir).Session()
	_, gerr := s.Compile("schemas/v.json")
	_, werr := NewCompiler(dir).Compile("schemas/v.json")
	if gerr == nil || errText(gerr) != errText(werr) || !strings.Contains(gerr.Error(), "no schemas directory") {
		t.Fatalf("Session: %v\nCompiler: %v", gerr, werr)
	}
	s.Close()
	mustWrite(t, dir, "schemas/w.json", `{}`)
	if raw, err := readFile(s.c, s.files, "schemas/w.json"); err != nil || string(raw) != `{}` {
		t.Fatalf("after Close: %q, %v", raw, err)
	}
	s.Close()
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
