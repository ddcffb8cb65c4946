package plugin

import (
	"os"
	"path/filepath"
	"sync"

	"kitsoki/internal/fsmemo"
)

// ProfileSearch remembers, for one run over many stories (kitsoki validate
// ./...), what the upward search for .kitsoki found in each directory and
// the profiles it read: stories side by side share their parents, so each
// directory is looked at once and each profile parsed once. It assumes the
// tree does not change during the run. Pass one in [Options].Search; a nil
// *ProfileSearch searches and reads afresh each time. Safe for concurrent
// use; the zero value is ready.
type ProfileSearch struct {
	// FS, when set, is the run's memo of the file system the search
	// stats through (a story directory already listed answers at once).
	FS *fsmemo.Memo

	mu       sync.Mutex
	wd       string
	wdErr    error
	wdDone   bool
	dirs     map[string]searchHit // absolute directory -> nearest finds at or above it
	profiles map[string]*profileRead
}

// searchHit is what the upward search finds from one directory: every
// .kitsoki/plugins.yaml at or above it, nearest first (shared: never
// appended to in place), and the nearest .kitsoki directory ("" for none).
type searchHit struct {
	profiles []string
	kitDir   string
}

type profileRead struct {
	once sync.Once
	p    *Profile
	err  error
}

// abs is filepath.Abs with the working directory looked up once.
func (s *ProfileSearch) abs(dir string) (string, error) {
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir), nil
	}
	s.mu.Lock()
	if !s.wdDone {
		s.wd, s.wdErr = os.Getwd()
		s.wdDone = true
	}
	wd, err := s.wd, s.wdErr
	s.mu.Unlock()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, dir), nil
}

// find returns what the upward search finds from dir (nil s: a fresh
// search), remembering the answer for dir and each parent it looked at.
func (s *ProfileSearch) find(dir string) searchHit {
	if s == nil {
		s = &ProfileSearch{}
	}
	d, err := s.abs(dir)
	if err != nil {
		return searchHit{}
	}
	return s.hit(d)
}

func (s *ProfileSearch) hit(d string) searchHit {
	s.mu.Lock()
	h, ok := s.dirs[d]
	s.mu.Unlock()
	if ok {
		return h
	}
	// A .kitsoki that is not a directory holds no plugins.yaml, so one
	// stat answers both questions when there is none (the common case).
	own := ""
	kd := filepath.Join(d, ProfileDir)
	if mode, err := s.FS.Stat(kd); err == nil && mode.IsDir() {
		h.kitDir = kd
		p := filepath.Join(kd, ProfileFile)
		if mode, err := s.FS.Stat(p); err == nil && !mode.IsDir() {
			own = p
		}
	}
	if parent := filepath.Dir(d); parent != d {
		up := s.hit(parent)
		h.profiles = up.profiles
		if h.kitDir == "" {
			h.kitDir = up.kitDir
		}
	}
	if own != "" {
		h.profiles = append([]string{own}, h.profiles...)
	}
	s.mu.Lock()
	if s.dirs == nil {
		s.dirs = map[string]searchHit{}
	}
	s.dirs[d] = h
	s.mu.Unlock()
	return h
}

// findProfiles is FindProfiles through s (nil: afresh). The slice is
// shared: read it only.
func (s *ProfileSearch) findProfiles(dir string) []string {
	return s.find(dir).profiles
}

// findKitDir is the nearest .kitsoki directory at or above dir, through
// s (nil: afresh); "" for none.
func (s *ProfileSearch) findKitDir(dir string) string {
	return s.find(dir).kitDir
}

// readProfile is readProfile through s: each path is read and parsed once
// (nil: afresh). The *Profile is shared; Assemble only reads it.
func (s *ProfileSearch) readProfile(path string) (*Profile, error) {
	if s == nil {
		return readProfile(path)
	}
	s.mu.Lock()
	r := s.profiles[path]
	if r == nil {
		if s.profiles == nil {
			s.profiles = map[string]*profileRead{}
		}
		r = &profileRead{}
		s.profiles[path] = r
	}
	s.mu.Unlock()
	r.once.Do(func() { r.p, r.err = readProfile(path) })
	return r.p, r.err
}
