package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
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
	return snapshotThrough(appID, dir, entry, nil)
}

// snapshotFile is a file of the snapshot: its name in the story, its
// absolute path and its size when listed.
type snapshotFile struct {
	rel, path string
	size      int64
}

// snapshotThrough is storySnapshot, the directory listed and each file
// opened through a root of it, never by path: a file or directory swapped
// for a symlink leading out after the listing saw it (a process running
// beside the story) fails the snapshot as leading out, whatever its target,
// instead of putting an outside file's bytes in the trace. beforeOpen, when
// set (tests), runs before each file is opened.
func snapshotThrough(appID, dir, entry string, beforeOpen func(rel string)) (map[string]any, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root := safefile.NewRoot(abs)
	defer root.Close()
	var files []snapshotFile
	var total int64
	if err := listSnapshot(root, root.Dir(), &files, &total); err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b snapshotFile) int { return strings.Compare(a.rel, b.rel) })
	keep := total <= maxSnapshotBytes
	h := sha256.New()
	out := map[string]any{}
	for _, f := range files {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(f.rel))))
		h.Write([]byte(f.rel))
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(f.size)))
		if beforeOpen != nil {
			beforeOpen(f.rel)
		}
		data, err := hashFile(h, root, f.path, f.size, keep)
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

// listSnapshot appends the snapshot's files under the directory d (absolute,
// inside root) to files, listed through root.
func listSnapshot(root *safefile.Root, d string, files *[]snapshotFile, total *int64) error {
	entries, err := root.ReadDir(d, 0)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		p := filepath.Join(d, name)
		if e.IsDir() {
			if err := listSnapshot(root, p, files, total); err != nil {
				return err
			}
			continue
		}
		if !e.Type().IsRegular() || strings.HasSuffix(name, "~") {
			continue
		}
		fi, err := root.Stat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root.Dir(), p)
		*files = append(*files, snapshotFile{rel: filepath.ToSlash(rel), path: p, size: fi.Size()})
		*total += fi.Size()
	}
	return nil
}

// hashFile streams exactly size bytes of the file at path (opened through
// root) into h, and
// returns them when keep is set. A file that changed size since its stat
// is an error (the snapshot would not match the hash).
func hashFile(h io.Writer, root *safefile.Root, path string, size int64, keep bool) ([]byte, error) {
	fh, err := root.Open(path, safefile.Stream)
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
