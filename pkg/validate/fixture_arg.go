package validate

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// FixtureArgError is a path given where a story is expected that is a test
// fixture (its top level has test_kind:), as a user who points at the file
// they are working on does. Loaded as a story it would report every fixture
// key as unknown, which says nothing of the mistake.
type FixtureArgError struct {
	Path string
	// Kind is the fixture's test_kind (flow, intents, ...).
	Kind string
	// StoryDir is the story directory the fixture sits in (the nearest
	// directory above it holding an app.yaml), "" when there is none.
	StoryDir string
}

func (e *FixtureArgError) Error() string {
	what := fmt.Sprintf("%s: a test fixture (test_kind: %s), not a story", e.Path, e.Kind)
	if e.StoryDir == "" {
		return what + "; give the directory holding the app.yaml of the story it tests"
	}
	if e.Kind == "flow" {
		if rel, err := filepath.Rel(e.StoryDir, e.Path); err == nil && !strings.HasPrefix(rel, "..") {
			return fmt.Sprintf("%s; give the story it tests, %s (`kitsoki test %s --flows %s` runs this fixture alone)", what, e.StoryDir, e.StoryDir, filepath.ToSlash(rel))
		}
	}
	return fmt.Sprintf("%s; give the story it tests, %s", what, e.StoryDir)
}

// fixtureHead is how much of a file is read to find a test_kind: key.
const fixtureHead = 64 << 10

// fixtureStoryDepth is how many directories above a fixture are searched
// for the story's app.yaml (flows/x.yaml, intents/x.yaml, flows/sub/x.yaml).
const fixtureStoryDepth = 3

// AsFixture returns the [FixtureArgError] for path when it is a regular
// file other than an app.yaml whose first 64 KiB hold a top-level
// test_kind: key, else nil. A story never has that key.
func AsFixture(path string) *FixtureArgError {
	if filepath.Base(path) == StoryFile {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	kind := topLevelTestKind(io.LimitReader(f, fixtureHead))
	if kind == "" {
		return nil
	}
	return &FixtureArgError{Path: path, Kind: kind, StoryDir: storyDirAbove(path)}
}

// topLevelTestKind is the value of an unindented test_kind: line ("" when
// none), a BOM and CRLF line ends allowed.
func topLevelTestKind(r io.Reader) string {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), fixtureHead)
	first := true
	for sc.Scan() {
		line := sc.Bytes()
		if first {
			line, first = bytes.TrimPrefix(line, []byte("\ufeff")), false
		}
		rest, ok := bytes.CutPrefix(line, []byte("test_kind:"))
		if !ok {
			continue
		}
		v := string(bytes.TrimSpace(rest))
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		v = strings.Trim(v, `"'`)
		if v == "" || strings.ContainsAny(v, " \t{}[]") {
			return ""
		}
		return v
	}
	return ""
}

// storyDirAbove is the nearest directory above path holding an app.yaml,
// "" when none within fixtureStoryDepth.
func storyDirAbove(path string) string {
	dir := filepath.Dir(path)
	for range fixtureStoryDepth {
		if _, err := os.Lstat(filepath.Join(dir, StoryFile)); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if dir == "." || up == dir {
			break
		}
		dir = up
	}
	return ""
}
