package plugin

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"kitsoki/internal/fsmemo"
)

// listAll lists every directory below dir through m, as validate's walk
// does.
func listAll(t *testing.T, m *fsmemo.Memo, dir string) {
	es, err := m.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.IsDir() {
			listAll(t, m, filepath.Join(dir, e.Name()))
		}
	}
}

// searchTree lays out the shapes the upward search must tell apart and
// returns its root and the directories to search from:
//
//	.kitsoki/plugins.yaml        the profile every story falls back to
//	a/.kitsoki/                  a nearer .kitsoki with no profile
//	c/.kitsoki                   a file, not a directory
//	e/.kitsoki/plugins.yaml/     a directory named like the profile
//	g/.kitsoki/plugins.yaml      a nearer profile
func searchTree(t *testing.T) (string, []string) {
	t.Helper()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), "disable: []\n")
	writeFile(t, filepath.Join(root, "a", ProfileDir, "plugins", "x", "manifest.yaml"), "id: x\n")
	writeFile(t, filepath.Join(root, "a", "b", "app.yaml"), "")
	writeFile(t, filepath.Join(root, "c", ProfileDir), "not a directory\n")
	writeFile(t, filepath.Join(root, "c", "d", "app.yaml"), "")
	writeFile(t, filepath.Join(root, "e", ProfileDir, ProfileFile, "keep"), "")
	writeFile(t, filepath.Join(root, "g", ProfileDir, ProfileFile), "disable: [budget]\n")
	writeFile(t, filepath.Join(root, "g", "h", "app.yaml"), "")
	dirs := []string{"a/b", "a", "c/d", "c", "e", "g/h", "g", ".", "a/b/../../c/d"}
	for i, d := range dirs {
		dirs[i] = filepath.Join(root, d)
	}
	return root, dirs
}

// TestProfileSearchMatchesFreshSearch: a shared search answers what a
// fresh one answers, from every directory and whatever
// the order the directories are met in (a parent cached first or last).
func TestProfileSearchMatchesFreshSearch(t *testing.T) {
	_, dirs := searchTree(t)
	backward := slices.Clone(dirs)
	slices.Reverse(backward)
	root := filepath.Dir(filepath.Dir(dirs[0]))
	for i, order := range [][]string{dirs, backward, dirs} {
		s := &ProfileSearch{}
		if i == 2 { // through a run's memo holding the tree's listings
			s.FS = &fsmemo.Memo{}
			listAll(t, s.FS, root)
		}
		for _, d := range order {
			if got, want := s.findProfiles(d), FindProfiles(d); !slices.Equal(got, want) {
				t.Errorf("findProfiles(%s) = %q, want %q", d, got, want)
			}
			if got, want := s.findKitDir(d), (&ProfileSearch{}).findKitDir(d); got != want {
				t.Errorf("findKitDir(%s) = %q, want %q", d, got, want)
			}
		}
	}
}

// TestProfileSearchFinds pins what the search finds (so the comparison
// above is not of two equal mistakes), from relative directories too.
func TestProfileSearchFinds(t *testing.T) {
	root, _ := searchTree(t)
	t.Chdir(filepath.Join(root, "a"))
	rootProfile := filepath.Join(root, ProfileDir, ProfileFile)
	cases := []struct{ dir, profile, kitDir string }{
		{"b", rootProfile, filepath.Join(root, "a", ProfileDir)},
		{"../c/d", rootProfile, filepath.Join(root, ProfileDir)},
		{"../e", rootProfile, filepath.Join(root, "e", ProfileDir)},
		{"../g/h", filepath.Join(root, "g", ProfileDir, ProfileFile), filepath.Join(root, "g", ProfileDir)},
	}
	s := &ProfileSearch{}
	for _, c := range cases {
		if got := s.findProfiles(c.dir); len(got) == 0 || got[0] != c.profile {
			t.Errorf("findProfiles(%s) = %q, want %q first", c.dir, got, c.profile)
		}
		if got := s.findKitDir(c.dir); got != c.kitDir {
			t.Errorf("findKitDir(%s) = %q, want %q", c.dir, got, c.kitDir)
		}
	}
}

// TestAssembleWithSearchIsTheSame: assemblies through one shared search
// equal those assembled afresh, story after story, and each profile is
// parsed once.
func TestAssembleWithSearchIsTheSame(t *testing.T) {
	_, dirs := searchTree(t)
	s := &ProfileSearch{}
	for _, d := range dirs {
		fresh, ferr := Assemble(Options{StoryDir: d})
		shared, serr := Assemble(Options{StoryDir: d, Search: s})
		if (ferr == nil) != (serr == nil) {
			t.Fatalf("%s: errors differ: %v / %v", d, ferr, serr)
		}
		if ferr != nil {
			continue
		}
		fresh.getenv, shared.getenv = nil, nil
		if !reflect.DeepEqual(fresh, shared) {
			t.Errorf("%s: assembly differs:\nfresh  %+v\nshared %+v", d, fresh, shared)
		}
	}
	p := filepath.Join(dirs[len(dirs)-3], ProfileDir, ProfileFile) // g's profile
	a, _ := s.readProfile(p)
	b, _ := s.readProfile(p)
	if a == nil || a != b {
		t.Fatalf("readProfile(%s) twice = %p, %p: want one shared parse", p, a, b)
	}
}
