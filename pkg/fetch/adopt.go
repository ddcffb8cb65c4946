package fetch

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// shimName is the file name the libstdc++ shim has in a release directory
// (the existing engine's name too).
const shimName = "libstdc++.so.6"

// adoptRelease takes over a release directory that the existing kitsoki
// engine extracted into a shared cache (it keeps no archive to re-verify;
// see docs/compat/fetch-sidecar.md): its files are hashed once into a
// manifest marked Adopted. Only that engine's shape is adopted (flat
// regular files and symlinks to plain names, llama-server a regular file);
// anything else is left to the normal download, which replaces it. With
// write false (a read-only cache) nothing is changed or recorded, and
// llama-server must already be executable.
func adoptRelease(dir string, a *Artifact, write bool) (releaseManifest, bool) {
	st, err := os.Lstat(filepath.Join(dir, "llama-server"))
	if err != nil || !st.Mode().IsRegular() {
		return releaseManifest{}, false
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return releaseManifest{}, false
	}
	man := releaseManifest{ArchiveSHA256: a.SHA256, Release: a.Release, Platform: a.Key, Adopted: true}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil || !plainName(target) || strings.ContainsRune(target, filepath.Separator) {
				return releaseManifest{}, false
			}
			man.Files = append(man.Files, extractedFile{Name: e.Name(), Link: target, Mode: fs.ModeSymlink | 0o777})
		case e.Type().IsRegular():
			info, err := e.Info()
			if err != nil {
				return releaseManifest{}, false
			}
			sum, n, err := hashFile(p)
			if err != nil {
				return releaseManifest{}, false
			}
			f := extractedFile{Name: e.Name(), Size: n, SHA256: sum, Mode: info.Mode().Perm()}
			if e.Name() == shimName {
				man.Shim = &f
				continue
			}
			man.Files = append(man.Files, f)
		default:
			return releaseManifest{}, false
		}
	}
	if !write {
		return man, st.Mode().Perm()&0o111 != 0
	}
	if err := os.Chmod(filepath.Join(dir, "llama-server"), 0o755); err != nil {
		return releaseManifest{}, false
	}
	if err := writeManifest(dir, man); err != nil {
		return releaseManifest{}, false
	}
	return man, true
}
