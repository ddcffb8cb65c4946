package fetch

import (
	"archive/tar"
	"archive/zip"
	"compress/bzip2"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ulikunitz/xz"
)

// extractLimits bound an extraction against decompression bombs.
type extractLimits struct {
	MaxFiles      int   // entries of any kind
	MaxFileBytes  int64 // one regular file
	MaxTotalBytes int64 // all regular files
}

// defaultLimits fit a llama.cpp release (a few hundred MB unpacked) with room.
var defaultLimits = extractLimits{MaxFiles: 10000, MaxFileBytes: 2 << 30, MaxTotalBytes: 4 << 30}

// extractedFile is one file written by an extraction.
type extractedFile struct {
	Name   string      `json:"name"`             // flat name in the destination
	Size   int64       `json:"size,omitempty"`   // regular files
	SHA256 string      `json:"sha256,omitempty"` // regular files
	Link   string      `json:"link,omitempty"`   // symlink target (a flat name)
	Mode   fs.FileMode `json:"mode"`
}

// extractFile extracts the archive at archivePath (format tar.gz, tar.xz,
// tar.bz2 or zip) flat into destDir, which must exist: every file lands
// at destDir/<base name>, SONAME symlinks kept as symlinks to flat names.
// Rejected: absolute names, "..", links resolving outside the archive,
// devices and fifos, and anything past defaultLimits. When only is non-nil,
// just those members (cleaned archive path -> output name) are extracted.
func extractFile(archivePath, format, destDir string, only map[string]string) ([]extractedFile, error) {
	fh, err := os.Open(archivePath)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	files, err := extractArchive(fh, st.Size(), format, destDir, defaultLimits, only)
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", archivePath, err)
	}
	return files, nil
}

// extractArchive is extractFile over any ReaderAt of the given size, within lim.
func extractArchive(r io.ReaderAt, size int64, format, destDir string, lim extractLimits, only map[string]string) ([]extractedFile, error) {
	x := &extractor{dest: destDir, lim: lim, only: only, out: map[string]extractedFile{}, from: map[string]string{}}
	var err error
	if format == "zip" {
		err = x.zip(r, size)
	} else if decompress, ok := tarDecompressors[format]; ok {
		err = x.tar(io.NewSectionReader(r, 0, size), format, decompress)
	} else {
		return nil, fmt.Errorf("unsupported archive format %q (want tar.gz, tar.xz, tar.bz2 or zip)", format)
	}
	if err != nil {
		return nil, err
	}
	for from, to := range only {
		if _, ok := x.out[to]; !ok {
			return nil, fmt.Errorf("member %q not found in archive", from)
		}
	}
	return slices.SortedFunc(maps.Values(x.out), func(a, b extractedFile) int { return strings.Compare(a.Name, b.Name) }), nil
}

type extractor struct {
	dest    string
	lim     extractLimits
	only    map[string]string
	entries int
	total   int64
	out     map[string]extractedFile
	// from maps each flat output name to the archive member written there.
	from map[string]string
}

// tarDecompressors open the stream inside each tar format (plain tar as is).
var tarDecompressors = map[string]func(io.Reader) (io.Reader, error){
	"tar.gz":  func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	"tar.xz":  func(r io.Reader) (io.Reader, error) { return xz.NewReader(r) },
	"tar.bz2": func(r io.Reader) (io.Reader, error) { return bzip2.NewReader(r), nil },
	"tar":     func(r io.Reader) (io.Reader, error) { return r, nil },
}

func (x *extractor) tar(r io.Reader, format string, decompress func(io.Reader) (io.Reader, error)) error {
	dr, err := decompress(r)
	if err != nil {
		// The reader's own prefix would repeat the format.
		msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "gzip: "), "xz: ")
		return fmt.Errorf("not a valid %s (%s)", format, msg)
	}
	tr := tar.NewReader(dr)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read tar: %w", err)
		}
		var kind entryKind
		switch hdr.Typeflag {
		case tar.TypeReg, tar.TypeGNUSparse:
			kind = entryFile
		case tar.TypeDir:
			kind = entryDir
		case tar.TypeSymlink:
			kind = entrySymlink
		case tar.TypeLink:
			kind = entryHardlink
		case tar.TypeXGlobalHeader, tar.TypeXHeader, tar.TypeGNULongName, tar.TypeGNULongLink:
			continue
		default:
			kind = entryOther
		}
		if err := x.entry(hdr.Name, kind, fs.FileMode(hdr.Mode).Perm(), hdr.Linkname, hdr.Size, tr); err != nil {
			return err
		}
	}
}

func (x *extractor) zip(r io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return fmt.Errorf("not a valid zip (%s)", strings.TrimPrefix(err.Error(), "zip: "))
	}
	for _, f := range zr.File {
		if err := x.zipEntry(f); err != nil {
			return err
		}
	}
	return nil
}

// zipEntry extracts one zip member, closing its reader before the next
// member opens.
func (x *extractor) zipEntry(f *zip.File) error {
	mode := f.Mode()
	var kind entryKind
	switch {
	case mode.IsDir():
		kind = entryDir
	case mode&fs.ModeSymlink != 0:
		kind = entrySymlink
	case mode.IsRegular():
		kind = entryFile
	default:
		kind = entryOther
	}
	var link string
	var body io.Reader
	if kind == entrySymlink || kind == entryFile {
		if f.UncompressedSize64 > uint64(x.lim.MaxFileBytes) {
			return fmt.Errorf("entry %q: %d bytes exceeds the %d-byte limit per file", f.Name, f.UncompressedSize64, x.lim.MaxFileBytes)
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("entry %q: %w", f.Name, err)
		}
		body = rc
		defer rc.Close()
		if kind == entrySymlink {
			b, err := io.ReadAll(io.LimitReader(rc, 4096))
			if err != nil {
				return fmt.Errorf("entry %q: %w", f.Name, err)
			}
			link = string(b)
		}
	}
	return x.entry(f.Name, kind, mode.Perm(), link, int64(f.UncompressedSize64), body)
}

type entryKind int

const (
	entryFile entryKind = iota
	entryDir
	entrySymlink
	entryHardlink
	entryOther
)

// cleanMember checks an archive path and returns it cleaned.
func cleanMember(name string) (string, error) {
	if name == "" {
		return "", errors.New("empty name")
	}
	if strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || (len(name) > 1 && name[1] == ':') {
		return "", errors.New("absolute path")
	}
	if strings.ContainsRune(name, '\\') {
		return "", errors.New("backslash in path")
	}
	if slices.Contains(strings.Split(name, "/"), "..") {
		return "", errors.New(`".." in path`)
	}
	return path.Clean(name), nil
}

func (x *extractor) entry(name string, kind entryKind, perm fs.FileMode, linkname string, size int64, body io.Reader) error {
	x.entries++
	if x.entries > x.lim.MaxFiles {
		return fmt.Errorf("more than %d entries: refusing (decompression bomb?)", x.lim.MaxFiles)
	}
	clean, err := cleanMember(name)
	if err != nil {
		return fmt.Errorf("entry %q: %v: refusing hostile archive", name, err)
	}
	if kind == entryOther {
		return fmt.Errorf("entry %q: device, fifo or other special file: refusing hostile archive", name)
	}
	if kind == entryDir {
		return nil
	}
	out := path.Base(clean)
	if x.only != nil {
		to, ok := x.only[clean]
		if !ok {
			return nil
		}
		out = to
	}
	if out == "" || out == "." || out == "/" {
		return nil
	}
	// Flattening must not merge two members: the later one would silently
	// replace the earlier (which one a user gets would depend on order).
	if prev, dup := x.from[out]; dup {
		return fmt.Errorf("entries %q and %q both flatten to %q: refusing an ambiguous archive (each extracted file needs its own base name)", prev, name, out)
	}
	x.from[out] = name
	target := filepath.Join(x.dest, out)
	if kind == entrySymlink || kind == entryHardlink {
		return x.link(name, clean, out, target, kind, linkname)
	}
	return x.file(name, out, target, perm, size, body)
}

// link writes a symlink or hard link entry as a link between flat names.
func (x *extractor) link(name, clean, out, target string, kind entryKind, linkname string) error {
	resolved := linkname
	if kind == entrySymlink {
		resolved = path.Join(path.Dir(clean), linkname)
	}
	resolved = path.Clean(resolved)
	if linkname == "" || strings.HasPrefix(linkname, "/") || strings.ContainsRune(linkname, '\\') ||
		resolved == ".." || strings.HasPrefix(resolved, "../") || resolved == "." {
		return fmt.Errorf("entry %q: link to %q points outside the archive: refusing hostile archive", name, linkname)
	}
	flat := path.Base(resolved)
	if x.only != nil {
		// Selected members must be real files.
		return fmt.Errorf("member %q is a link, want a regular file", clean)
	}
	if flat == out {
		return fmt.Errorf("entry %q: link to itself: refusing", name)
	}
	_ = os.Remove(target)
	if kind == entryHardlink {
		src := filepath.Join(x.dest, flat)
		prev, ok := x.out[flat]
		if !ok || prev.Link != "" {
			return fmt.Errorf("entry %q: hard link to %q which is not an earlier regular file", name, linkname)
		}
		if err := os.Link(src, target); err != nil {
			return fmt.Errorf("entry %q: %w", name, err)
		}
		prev.Name = out
		x.out[out] = prev
		return nil
	}
	if err := os.Symlink(flat, target); err != nil {
		return fmt.Errorf("entry %q: %w", name, err)
	}
	x.out[out] = extractedFile{Name: out, Link: flat, Mode: fs.ModeSymlink | 0o777}
	return nil
}

// file writes a regular file entry within the limits, recording its digest.
func (x *extractor) file(name, out, target string, perm fs.FileMode, size int64, body io.Reader) error {
	if size > x.lim.MaxFileBytes {
		return fmt.Errorf("entry %q: %d bytes exceeds the %d-byte limit per file (decompression bomb?)", name, size, x.lim.MaxFileBytes)
	}
	if x.total+size > x.lim.MaxTotalBytes {
		return fmt.Errorf("entry %q: archive unpacks to more than %d bytes (decompression bomb?)", name, x.lim.MaxTotalBytes)
	}
	_ = os.Remove(target)
	perm = perm&0o755 | 0o600
	fh, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("entry %q: %w", name, err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(fh, h), io.LimitReader(body, size+1))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("entry %q: %w", name, err)
	}
	if n != size {
		return fmt.Errorf("entry %q: header says %d bytes, body has %d", name, size, n)
	}
	x.total += n
	x.out[out] = extractedFile{Name: out, Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), Mode: perm}
	return nil
}
