package host

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"kitsoki/internal/safefile"
	"kitsoki/internal/testing/refusal"
	"kitsoki/pkg/host/scriptiface"
)

func seedFiles(f *testing.F, glob string) {
	ms, _ := filepath.Glob(glob)
	for _, m := range ms {
		if b, err := os.ReadFile(m); err == nil {
			f.Add(b)
		}
	}
}

// FuzzParseSidecar: any bytes give a sidecar or an error naming the file
// on one line without a Go type, never a panic; a parsed sidecar's types are all known.
func FuzzParseSidecar(f *testing.F) {
	seedFiles(f, "testdata/*/scripts/*.yaml")
	seedFiles(f, "testdata/weather/*.star.yaml")
	f.Add([]byte("inputs:\n  a: string\n  b: { type: int, default: 3 }\noutputs: ~\n"))
	f.Add([]byte("inputs: [1, 2]\n"))
	f.Add([]byte("&a [*a]"))
	// inputs merging one list: the repeated-key search checks it once
	f.Add([]byte("notes: &L [{a: 1, b: 2}, {c: 3}]\ninputs:\n  x: {<<: *L, type: string}\n  y: {<<: *L}\n  z: {<<: [*L, {a: 4}]}\n"))
	f.Add([]byte("inputs:\n  a: {type: int, default: !!int x}\n"))
	f.Add([]byte("outputs:\n  b: [1]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scriptiface.Parse("f.yaml", data)
		if err != nil {
			refusal.Leads(t, data, err.Error(), "f.yaml")
			return
		}
		for _, m := range []map[string]scriptiface.Field{sc.Inputs, sc.Outputs} {
			for n, fl := range m {
				if !slices.Contains(scriptiface.Types, fl.Type) {
					t.Fatalf("%s: type %q accepted", n, fl.Type)
				}
			}
		}
		_, _ = sc.CheckInputs(map[string]any{"a": "x", "b": 1})
		_ = sc.CheckOutputs(map[string]any{"a": nil})
	})
}

// FuzzParseHTTPCassette: no panic; errors name the file; a parsed
// cassette answers without panicking.
func FuzzParseHTTPCassette(f *testing.F) {
	seedFiles(f, "testdata/*/cassettes/*.yaml")
	seedFiles(f, "testdata/weather/*.http.yaml")
	f.Add([]byte("kind: http_cassette\nexchanges:\n  - match: { url_pattern: \"a+\" }\n    response: { status: 200, body: [1] }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseHTTPCassette("f.yaml", data, nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		_, _ = c.Answer("GET", "https://example.com/a")
		_ = unplayed(c)
	})
}

// FuzzParseInspectCassette: no panic; errors name the file.
func FuzzParseInspectCassette(f *testing.F) {
	f.Add([]byte("kind: inspect_cassette\ninteractions:\n  - { op: read, target: a, out: x }\n"))
	f.Add([]byte("kind: inspect_cassette\ninteractions:\n  - { op: probe, target: p, exit: 3, out: o }\n  - { op: glob, target: \"*\", out: \"a\\nb\" }\n"))
	f.Add([]byte("kind: inspect_cassette\ninteractions:\n  - { op: probe, exit: x }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseInspectCassette("f.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if _, err := c.take("read", "a"); err != nil && !strings.Contains(err.Error(), "no interaction matched read a") {
			t.Fatalf("miss: %v", err)
		}
	})
}

// segsWellFormed reports whether each slash-separated part of pattern is
// a well-formed path.Match pattern.
func segsWellFormed(pattern string) bool {
	for _, sg := range strings.Split(pattern, "/") {
		if _, err := path.Match(sg, ""); err != nil {
			return false
		}
	}
	return true
}

// FuzzTrailingJSON: whatever a command prints, the scan terminates; a
// value found is encoding/json's reading of the shortest suffix starting
// a line (after white space) that parses (output ending in } or ]: when
// none is found, no such suffix parses) or of the last line; a
// parse error is encoding/json's own for the last line. And any output
// followed by a line holding one JSON value gives that value.
func FuzzTrailingJSON(f *testing.F) {
	f.Add("hello\n{\"a\": 1}\n", `[1, {"b": "c]"}]`)
	f.Add("[\n1,\n2\n]", `"s"`)
	f.Add("{\n", `3.5e2`)
	f.Add("x\n  {\"a\":\n [1]}\n\t\n", `{}`)
	f.Add("{\"a\": \"b\"} tail", `null`)
	f.Fuzz(func(t *testing.T, out, doc string) {
		v, perr, found := trailingJSON(out)
		if found && perr != "" {
			t.Fatal("found and a parse error")
		}
		s := strings.TrimRightFunc(out, unicode.IsSpace)
		last := strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
		var want any
		switch {
		case found && (strings.HasSuffix(s, "}") || strings.HasSuffix(s, "]")):
			ok := false
			for i := len(s) - 1; i >= 0 && !ok; i-- {
				if i == 0 || s[i-1] == '\n' {
					line := strings.TrimLeftFunc(s[i:], unicode.IsSpace)
					ok = line != "" && strings.ContainsRune("{[", rune(line[0])) && json.Unmarshal([]byte(line), &want) == nil
				}
			}
			if !ok || !reflect.DeepEqual(v, want) {
				t.Fatalf("%q: found %v, the shortest suffix reads %v (%v)", out, v, want, ok)
			}
		case found:
			if err := json.Unmarshal([]byte(last), &want); err != nil || !reflect.DeepEqual(v, want) {
				t.Fatalf("%q: found %v, the last line reads %v (%v)", out, v, want, err)
			}
		case perr != "":
			if err := json.Unmarshal([]byte(last), &want); err == nil || err.Error() != perr {
				t.Fatalf("%q: parse error %q, encoding/json says %v", out, perr, err)
			}
		}
		if !found && (strings.HasSuffix(s, "}") || strings.HasSuffix(s, "]")) {
			for i := len(s) - 1; i >= 0; i-- {
				if i == 0 || s[i-1] == '\n' {
					line := strings.TrimLeftFunc(s[i:], unicode.IsSpace)
					if line != "" && strings.ContainsRune("{[", rune(line[0])) && json.Unmarshal([]byte(line), &want) == nil {
						t.Fatalf("%q: nothing found, but the suffix at byte %d reads %v", out, i, want)
					}
				}
			}
		}
		var d any
		if json.Unmarshal([]byte(doc), &d) != nil {
			return
		}
		line, _ := json.Marshal(d)
		if got, perr, found := trailingJSON(out + "\n" + string(line) + "\n"); !found || !reflect.DeepEqual(got, d) {
			t.Fatalf("%q then %s: got %v (%q), want %v", out, line, got, perr, d)
		}
	})
}

// FuzzGlob: any pattern terminates without panicking and never returns a
// path outside the root; a pattern without ** matches exactly the files
// path.Match matches with it, in order (when each part between slashes is
// a pattern itself: glob splits at every slash, one escaped or in a class
// too).
func FuzzGlob(f *testing.F) {
	root := f.TempDir()
	files := []string{"a/b.md", "a/c/d.txt", "e.md"}
	for _, p := range files {
		full := filepath.Join(root, p)
		_ = os.MkdirAll(filepath.Dir(full), 0o755)
		_ = os.WriteFile(full, []byte("x"), 0o644)
	}
	for _, s := range []string{"**/*.md", "a/*", "../*", "/etc/*", "[", "a/**/**/d.txt", "**", "./a/c/../b.md", "a/[b-c]*", " *.md ", "a\\/b.md", "?/*/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pat string) {
		got, err := glob(root, pat, 100)
		if err != nil {
			return
		}
		for _, g := range got {
			if !safefile.Within(root, filepath.Join(root, g)) {
				t.Fatalf("%q matched %q outside the root", pat, g)
			}
		}
		if clean := path.Clean(filepath.ToSlash(strings.TrimSpace(pat))); !strings.Contains(pat, "**") && segsWellFormed(clean) {
			var want []string
			for _, f := range files {
				if ok, _ := path.Match(clean, f); ok {
					want = append(want, f)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%q matched %q; path.Match matches %q", pat, got, want)
			}
		}
	})
}

// FuzzConfineWritten: any thread, walked through a tree of links (to a
// directory inside, to the root itself, out relatively, out absolutely),
// is refused or names a path inside the root whose existing part, links
// followed, is inside it too; never a panic.
func FuzzConfineWritten(f *testing.F) {
	for _, s := range []string{"thl/../y.md", "d/l/../x.md", "lo/../x.md", "ab/../x", "nd/../m.md", "thl/../../a", "th/d/../../thl/..", "a/..", "../x", "/etc/x"} {
		f.Add(s)
	}
	root := f.TempDir()
	wd := filepath.Join(root, "wd")
	for _, d := range []string{"wd/th/d", "out/d"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for link, to := range map[string]string{"thl": "th/d", "th/d/up": "../..", "d": "th", "th/l": "..", "lo": "../out/d", "ab": filepath.Join(root, "out")} {
		if err := os.Symlink(to, filepath.Join(wd, link)); err != nil {
			f.Skipf("no symlinks here: %v", err)
		}
	}
	real, err := filepath.EvalSymlinks(wd)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		fr, err := readFileRoot(wd, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer fr.Close()
		abs, err := fr.confineWritten("h", "thread", p)
		if err != nil {
			return
		}
		if !safefile.Within(wd, abs) {
			t.Fatalf("%q: %s is outside %s", p, abs, wd)
		}
		for q := abs; safefile.Within(wd, q); q = filepath.Dir(q) {
			if r, err := filepath.EvalSymlinks(q); err == nil {
				if !safefile.Within(real, r) {
					t.Fatalf("%q: %s leads to %s, outside %s", p, abs, r, real)
				}
				break
			}
		}
	})
}
