package fetch

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// tarEntry describes one entry of a test archive.
type tarEntry struct {
	name, link string
	typ        byte
	body       string
	mode       int64
}

func buildTar(t testing.TB, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		mode := e.mode
		if mode == 0 {
			mode = 0o644
		}
		h := &tar.Header{Name: e.name, Linkname: e.link, Typeflag: e.typ, Mode: mode, Size: int64(len(e.body))}
		if e.typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if e.typ == tar.TypeReg {
			io.WriteString(tw, e.body)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gz(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func xzc(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w, err := xz.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// bz2 compresses with the system bzip2 program (Go has no bzip2 writer).
func bz2(t testing.TB, b []byte) []byte {
	t.Helper()
	if _, err := exec.LookPath("bzip2"); err != nil {
		t.Skip("bzip2 program not installed: cannot build a tar.bz2 fixture")
	}
	cmd := exec.Command("bzip2", "-c")
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// releaseEntries is a llama.cpp-like release: nested top directory,
// versioned libraries and SONAME symlinks.
func releaseEntries(server string) []tarEntry {
	return []tarEntry{
		{name: "llama-b9444/", typ: tar.TypeDir, mode: 0o755},
		{name: "llama-b9444/llama-server", typ: tar.TypeReg, body: server, mode: 0o755},
		{name: "llama-b9444/libllama.so.0.0.9444", typ: tar.TypeReg, body: "fake libllama"},
		{name: "llama-b9444/libllama.so.0", typ: tar.TypeSymlink, link: "libllama.so.0.0.9444"},
		{name: "llama-b9444/libllama.so", typ: tar.TypeSymlink, link: "libllama.so.0"},
		{name: "llama-b9444/lib/libggml.so.0.0.1", typ: tar.TypeReg, body: "fake libggml"},
		{name: "llama-b9444/libggml.so.0", typ: tar.TypeSymlink, link: "lib/libggml.so.0.0.1"},
		{name: "llama-b9444/LICENSE", typ: tar.TypeReg, body: "MIT"},
	}
}

func zipOf(t testing.TB, entries []tarEntry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		switch e.typ {
		case tar.TypeDir:
			h.SetMode(fs.ModeDir | 0o755)
		case tar.TypeSymlink:
			h.SetMode(fs.ModeSymlink | 0o777)
		case tar.TypeFifo:
			h.SetMode(fs.ModeNamedPipe | 0o644)
		default:
			h.SetMode(fs.FileMode(max(e.mode, 0o644)))
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if e.typ == tar.TypeSymlink {
			io.WriteString(w, e.link)
		} else {
			io.WriteString(w, e.body)
		}
	}
	zw.Close()
	return buf.Bytes()
}

func extractBytes(t testing.TB, data []byte, format string, lim extractLimits, only map[string]string) (string, []extractedFile, error) {
	dest := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dest, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := extractArchive(bytes.NewReader(data), int64(len(data)), format, dest, lim.withDefaults(), only)
	return dest, files, err
}

// withDefaults fills the limits a test leaves zero from defaultLimits.
func (l extractLimits) withDefaults() extractLimits {
	return extractLimits{
		MaxFiles:      orDefault(l.MaxFiles, defaultLimits.MaxFiles),
		MaxFileBytes:  orDefault(l.MaxFileBytes, defaultLimits.MaxFileBytes),
		MaxTotalBytes: orDefault(l.MaxTotalBytes, defaultLimits.MaxTotalBytes),
	}
}

func TestExtractFlatKeepsSONAMESymlinksInEveryFormat(t *testing.T) {
	raw := buildTar(t, releaseEntries("#!/bin/sh\necho server\n"))
	cases := map[string]func() []byte{
		"tar.gz":  func() []byte { return gz(t, raw) },
		"tar.xz":  func() []byte { return xzc(t, raw) },
		"tar.bz2": func() []byte { return bz2(t, raw) },
		"zip":     func() []byte { return zipOf(t, releaseEntries("#!/bin/sh\necho server\n")) },
	}
	for format, build := range cases {
		t.Run(format, func(t *testing.T) {
			dest, files, err := extractBytes(t, build(), format, extractLimits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]extractedFile{}
			for _, f := range files {
				names[f.Name] = f
			}
			for _, want := range []string{"llama-server", "libllama.so.0.0.9444", "libllama.so.0", "libllama.so", "libggml.so.0.0.1", "libggml.so.0", "LICENSE"} {
				if _, ok := names[want]; !ok {
					t.Errorf("missing %s in %v", want, files)
				}
			}
			if l, err := os.Readlink(filepath.Join(dest, "libllama.so")); err != nil || l != "libllama.so.0" {
				t.Fatalf("libllama.so -> %q %v", l, err)
			}
			b, err := os.ReadFile(filepath.Join(dest, "libllama.so")) // through two links
			if err != nil || string(b) != "fake libllama" {
				t.Fatalf("read through SONAME chain: %q %v", b, err)
			}
			b, err = os.ReadFile(filepath.Join(dest, "libggml.so.0")) // link into a subdirectory, flattened
			if err != nil || string(b) != "fake libggml" {
				t.Fatalf("flattened link: %q %v", b, err)
			}
			if names["llama-server"].SHA256 != sum256([]byte("#!/bin/sh\necho server\n")) {
				t.Fatal("digest of extracted file")
			}
		})
	}
}

func TestExtractRejectsHostileArchives(t *testing.T) {
	cases := []struct {
		name    string
		entries []tarEntry
		lim     extractLimits
		want    string
	}{
		{"absolute path", []tarEntry{{name: "/etc/evil", typ: tar.TypeReg, body: "x"}}, extractLimits{}, "absolute path"},
		{"dotdot", []tarEntry{{name: "a/../../evil", typ: tar.TypeReg, body: "x"}}, extractLimits{}, `".." in path`},
		{"symlink outside", []tarEntry{{name: "a/link", typ: tar.TypeSymlink, link: "../../etc/passwd"}}, extractLimits{}, "points outside"},
		{"absolute symlink", []tarEntry{{name: "link", typ: tar.TypeSymlink, link: "/etc/passwd"}}, extractLimits{}, "points outside"},
		{"hardlink outside", []tarEntry{{name: "h", typ: tar.TypeLink, link: "../x"}}, extractLimits{}, "points outside"},
		{"char device", []tarEntry{{name: "dev", typ: tar.TypeChar}}, extractLimits{}, "device"},
		{"fifo", []tarEntry{{name: "pipe", typ: tar.TypeFifo}}, extractLimits{}, "fifo"},
		{"file too big", []tarEntry{{name: "big", typ: tar.TypeReg, body: strings.Repeat("0", 5000)}}, extractLimits{MaxFileBytes: 4096}, "limit per file"},
		{"total too big", []tarEntry{{name: "a", typ: tar.TypeReg, body: strings.Repeat("0", 3000)}, {name: "b", typ: tar.TypeReg, body: strings.Repeat("0", 3000)}}, extractLimits{MaxTotalBytes: 5000}, "unpacks to more than"},
		{"too many entries", []tarEntry{{name: "a", typ: tar.TypeReg}, {name: "b", typ: tar.TypeReg}, {name: "c", typ: tar.TypeReg}}, extractLimits{MaxFiles: 2}, "more than 2 entries"},
		{"two files flatten to one name", []tarEntry{{name: "bin/llama-server", typ: tar.TypeReg, body: "good"}, {name: "extra/llama-server", typ: tar.TypeReg, body: "evil"}}, extractLimits{}, `"bin/llama-server" and "extra/llama-server" both flatten to "llama-server"`},
		{"file and link flatten to one name", []tarEntry{{name: "a/libx.so", typ: tar.TypeReg, body: "x"}, {name: "b/libx.so", typ: tar.TypeSymlink, link: "../a/libx.so"}}, extractLimits{}, "both flatten"},
		{"same member twice", []tarEntry{{name: "x", typ: tar.TypeReg, body: "1"}, {name: "x", typ: tar.TypeReg, body: "2"}}, extractLimits{}, "both flatten"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dest, _, err := extractBytes(t, gz(t, buildTar(t, c.entries)), "tar.gz", c.lim, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			parent := filepath.Dir(dest)
			ents, _ := os.ReadDir(parent)
			if len(ents) != 1 {
				t.Fatalf("something was written beside the destination: %v", ents)
			}
		})
	}
	t.Run("zip entries flattening to one name", func(t *testing.T) {
		z := zipOf(t, []tarEntry{{name: "a/f", typ: tar.TypeReg, body: "1"}, {name: "b/f", typ: tar.TypeReg, body: "2"}})
		if _, _, err := extractBytes(t, z, "zip", extractLimits{}, nil); err == nil || !strings.Contains(err.Error(), "both flatten") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("zip dotdot and fifo", func(t *testing.T) {
		for _, e := range []tarEntry{{name: "../evil", typ: tar.TypeReg, body: "x"}, {name: "p", typ: tar.TypeFifo}, {name: "l", typ: tar.TypeSymlink, link: "../../x"}} {
			if _, _, err := extractBytes(t, zipOf(t, []tarEntry{e}), "zip", extractLimits{}, nil); err == nil {
				t.Errorf("zip entry %+v accepted", e)
			}
		}
	})
	t.Run("gzip bomb bounded by what it unpacks to", func(t *testing.T) {
		// 2 MiB of zeros compress to a few KiB; the limit stops it.
		big := tarEntry{name: "zeros", typ: tar.TypeReg, body: strings.Repeat("\x00", 2<<20)}
		data := gz(t, buildTar(t, []tarEntry{big}))
		if len(data) > 64<<10 {
			t.Fatalf("fixture not a bomb: %d bytes", len(data))
		}
		_, _, err := extractBytes(t, data, "tar.gz", extractLimits{MaxFileBytes: 16 << 10}, nil)
		if err == nil || !strings.Contains(err.Error(), "decompression bomb") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestExtractOnlySelectedMember(t *testing.T) {
	raw := buildTar(t, []tarEntry{
		{name: "info/index.json", typ: tar.TypeReg, body: "{}"},
		{name: "lib/libstdc++.so.6.0.30", typ: tar.TypeReg, body: "GLIBCXX_3.4.30"},
		{name: "lib/libstdc++.so.6", typ: tar.TypeSymlink, link: "libstdc++.so.6.0.30"},
	})
	dest, files, err := extractBytes(t, gz(t, raw), "tar.gz", extractLimits{}, map[string]string{"lib/libstdc++.so.6.0.30": "libstdc++.so.6"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Name != "libstdc++.so.6" {
		t.Fatalf("files %v", files)
	}
	if b, _ := os.ReadFile(filepath.Join(dest, "libstdc++.so.6")); string(b) != "GLIBCXX_3.4.30" {
		t.Fatalf("content %q", b)
	}
	_, _, err = extractBytes(t, gz(t, raw), "tar.gz", extractLimits{}, map[string]string{"lib/missing.so": "x"})
	if err == nil || !strings.Contains(err.Error(), `member "lib/missing.so" not found`) {
		t.Fatalf("err = %v", err)
	}
}

func FuzzExtract(f *testing.F) {
	raw := buildTar(f, releaseEntries("bin"))
	f.Add(gz(f, raw), "tar.gz")
	f.Add(raw, "tar")
	f.Add(zipOf(f, releaseEntries("bin")), "zip")
	f.Add(gz(f, buildTar(f, []tarEntry{{name: "a/../../x", typ: tar.TypeReg, body: "x"}})), "tar.gz")
	f.Add([]byte("not an archive"), "zip")
	f.Fuzz(func(t *testing.T, data []byte, format string) {
		if format != "zip" && format != "tar" && format != "tar.gz" {
			return
		}
		parent := t.TempDir()
		dest := filepath.Join(parent, "out")
		os.Mkdir(dest, 0o755)
		files, err := extractArchive(bytes.NewReader(data), int64(len(data)), format, dest, extractLimits{MaxFiles: 64, MaxFileBytes: 1 << 20, MaxTotalBytes: 4 << 20}, nil)
		ents, _ := os.ReadDir(parent)
		if len(ents) != 1 {
			t.Fatalf("wrote outside the destination: %v", ents)
		}
		if err != nil {
			return
		}
		for _, fl := range files {
			if strings.ContainsAny(fl.Name, `/\`) || fl.Name == ".." {
				t.Fatalf("non-flat name %q", fl.Name)
			}
			if fl.Link != "" && (strings.Contains(fl.Link, "/") || fl.Link == "..") {
				t.Fatalf("link target %q is not flat", fl.Link)
			}
		}
	})
}
