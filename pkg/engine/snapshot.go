package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/safefile"
)

// maxSnapshotBytes bounds the file contents embedded in session.story; past
// it the hash still covers every file but the contents are left out.
const maxSnapshotBytes = 8 << 20

// storySnapshot returns the session.story payload for the story directory:
// {app_id, entry, hash, files{relpath: base64}}. The hash is sha256 over the
// files sorted by path, each as uint64-BE len(path), path, uint64-BE
// len(content), content. Dot directories, dotfiles, node_modules and *~ are
// skipped; symlinks are not followed. Contents are held in memory only
// when they are kept (within maxSnapshotBytes); otherwise they stream.
func storySnapshot(appID, dir, entry string) (map[string]any, error) {
	type file struct {
		rel, path string
		size      int64
	}
	var files []file
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() || strings.HasSuffix(name, "~") {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, file{rel: filepath.ToSlash(rel), path: p, size: fi.Size()})
		total += fi.Size()
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.rel, b.rel) })
	keep := total <= maxSnapshotBytes
	h := sha256.New()
	out := map[string]any{}
	for _, f := range files {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(f.rel))))
		h.Write([]byte(f.rel))
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(f.size)))
		data, err := hashFile(h, f.path, f.size, keep)
		if err != nil {
			return nil, err
		}
		if keep {
			out[f.rel] = base64.StdEncoding.EncodeToString(data)
		}
	}
	payload := map[string]any{"app_id": appID, "entry": entry, "hash": hex.EncodeToString(h.Sum(nil))}
	if keep {
		payload["files"] = out
	} else {
		payload["files_omitted"] = "story files exceed 8 MiB"
	}
	return payload, nil
}

// hashFile streams exactly size bytes of the file at path into h, and
// returns them when keep is set. A file that changed size since its stat
// is an error (the snapshot would not match the hash).
func hashFile(h io.Writer, path string, size int64, keep bool) ([]byte, error) {
	fh, err := safefile.Open(path, safefile.Stream)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var w io.Writer = h
	var buf bytes.Buffer
	if keep {
		buf.Grow(int(size))
		w = io.MultiWriter(h, &buf)
	}
	got, err := io.Copy(w, io.LimitReader(fh, size+1))
	if err != nil {
		return nil, fmt.Errorf("story snapshot: %s: %w", path, err)
	}
	if got != size {
		return nil, fmt.Errorf("story snapshot: %s changed while it was read (%d bytes, %d at its stat): run again", path, got, size)
	}
	return buf.Bytes(), nil
}
