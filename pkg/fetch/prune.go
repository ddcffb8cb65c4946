package fetch

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/filelock"
	"kitsoki/internal/lazyre"
)

// Orphan is a cache entry of kitsoki's layout that no pin names any more:
// the release directory or archive of an earlier pin, the weights of a
// model no longer pinned, or an abandoned partial download of one. Files
// that do not follow the layout are never orphans: Orphans leaves them be.
type Orphan struct {
	Path  string   // the entry's base path (release directory, archive, weights)
	Files []string // every path that belongs to it (records, parts, lock)
	Bytes int64    // bytes on disk, directories walked without following links
}

var (
	releaseName = &lazyre.Regexp{Expr: `^llama-[0-9a-f]{12}$`}
	archiveName = &lazyre.Regexp{Expr: `^.+-[0-9a-f]{12}\.(tar\.gz|tar\.xz|tar\.bz2|zip)$`}
)

// Orphans lists the cache entries no pin in p names. Every pin counts,
// for every platform and whether or not it has a URL yet.
func (f *Fetcher) Orphans(p *Pins) ([]Orphan, error) {
	root, err := f.root()
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, a := range p.All() {
		if a.SHA256 == "" && a.Kind != KindModel {
			continue
		}
		if a.Kind == KindLlamaServer {
			if dir, err := f.ReleaseDir(a); err == nil {
				keep[dir] = true
			}
		}
		if path, err := f.Path(a); err == nil {
			keep[path] = true
		}
	}
	var out []Orphan
	for _, sub := range []struct {
		dir      string
		suffixes []string
		base     func(string) bool
	}{
		{"bin", []string{".json", ".lock"}, releaseName.MatchString},
		{"archives", []string{".part.json", ".part", ".lock"}, archiveName.MatchString},
		{"models", []string{".part.json", ".part", ".json", ".lock"}, func(n string) bool { return strings.HasSuffix(n, ".gguf") && n != ".gguf" }},
	} {
		dir := filepath.Join(root, sub.dir)
		ents, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		groups := map[string]*Orphan{}
		for _, e := range ents {
			name := e.Name()
			base := name
			for _, s := range sub.suffixes {
				if b, ok := strings.CutSuffix(name, s); ok {
					base = b
					break
				}
			}
			if !sub.base(base) {
				continue
			}
			bp := filepath.Join(dir, base)
			if keep[bp] {
				continue
			}
			o := groups[bp]
			if o == nil {
				o = &Orphan{Path: bp}
				groups[bp] = o
			}
			full := filepath.Join(dir, name)
			o.Files = append(o.Files, full)
			o.Bytes += diskBytes(full)
		}
		for _, k := range slices.Sorted(maps.Keys(groups)) {
			slices.Sort(groups[k].Files)
			out = append(out, *groups[k])
		}
	}
	return out, nil
}

// diskBytes is the size of path, a directory's files summed; links are
// counted as links, never followed.
func diskBytes(path string) int64 {
	var n int64
	_ = filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	return n
}

// ErrInUse is Prune's answer for an orphan another process holds the
// lock of (a kitsoki with other pins fetching it): it is left in place.
var ErrInUse = errors.New("in use by another kitsoki process")

// Prune removes one orphan under its lock: the entry, its records and
// parts. A symlink is removed, never followed.
func (f *Fetcher) Prune(o Orphan) error {
	lockPath := o.Path + ".lock"
	lf, err := openCacheFile(lockPath)
	if errors.Is(err, errNotRegular) {
		// A link (or pipe) where the orphan's lock goes is no kitsoki's
		// lock: it is one of the orphan's files, removed, never followed.
		if err := os.Remove(lockPath); err != nil {
			return err
		}
		lf, err = openCacheFile(lockPath)
	}
	if err != nil {
		return err
	}
	held, err := filelock.Try(lf)
	if err != nil {
		lf.Close()
		if held {
			return ErrInUse
		}
		return err
	}
	l := &fileLock{f: lf, path: lockPath}
	defer l.release()
	for _, p := range o.Files {
		if p == lockPath {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return nil
}
