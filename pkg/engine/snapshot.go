package engine

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// KindSessionStory is the turn-0 snapshot of the story files (A.7).
const KindSessionStory = "session.story"

// maxSnapshotBytes bounds the file contents embedded in session.story; past
// it the hash still covers every file but the contents are left out.
const maxSnapshotBytes = 8 << 20

// storySnapshot returns the session.story payload for the story directory:
// {app_id, entry, hash, files{relpath: base64}}. The hash is sha256 over the
// files sorted by path, each as uint64-BE len(path), path, uint64-BE
// len(content), content. Dot directories, dotfiles, node_modules and *~ are
// skipped; symlinks are not followed.
func storySnapshot(appID, dir, entry string) (map[string]any, error) {
	type file struct {
		rel  string
		data []byte
	}
	var files []file
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
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, file{rel: filepath.ToSlash(rel), data: data})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	h := sha256.New()
	var n [8]byte
	total := 0
	out := map[string]any{}
	for _, f := range files {
		binary.BigEndian.PutUint64(n[:], uint64(len(f.rel)))
		h.Write(n[:])
		h.Write([]byte(f.rel))
		binary.BigEndian.PutUint64(n[:], uint64(len(f.data)))
		h.Write(n[:])
		h.Write(f.data)
		total += len(f.data)
		out[f.rel] = base64.StdEncoding.EncodeToString(f.data)
	}
	payload := map[string]any{"app_id": appID, "entry": entry, "hash": hex.EncodeToString(h.Sum(nil))}
	if total <= maxSnapshotBytes {
		payload["files"] = out
	} else {
		payload["files_omitted"] = "story files exceed 8 MiB"
	}
	return payload, nil
}
