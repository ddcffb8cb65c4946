package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/internal/yamlnode"
)

// StoryArgFix is what a story argument of validate or test may be, the fix
// a missing one's message ends with.
const StoryArgFix = "give a story directory, its app.yaml or DIR/... (every story below DIR)"

// maxSiblings is how many entries of a missing path's directory are read
// for a suggestion.
const maxSiblings = 1024

// MissingPath is the error for a path argument that does not exist: the
// path, the reason, and either the sibling its last element is a typo of
// ("did you mean `ex/pr-review`?") or fix.
func MissingPath(arg, fix string) error {
	if s := siblingSuggestion(arg); s != "" {
		return fmt.Errorf("%s: no such file or directory; %s", arg, yamlnode.Meant(s))
	}
	return fmt.Errorf("%s: no such file or directory; %s", arg, fix)
}

// StatError is the error for a path argument os.Stat refused: [MissingPath]
// when it does not exist, else the path and the bare reason (the
// *fs.PathError would name the path twice, behind the syscall).
func StatError(arg string, err error, fix string) error {
	if errors.Is(err, fs.ErrNotExist) {
		return MissingPath(arg, fix)
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		err = pe.Err
	}
	return fmt.Errorf("%s: %v", arg, err)
}

// siblingSuggestion is the entry of arg's directory closest to its last
// element (as [yamlnode.Suggest] judges), joined as arg spells it, "" when
// none is close or the directory cannot be read.
func siblingSuggestion(arg string) string {
	clean := strings.TrimSuffix(arg, "/")
	dir, base := filepath.Split(clean)
	if base == "" || base == "." || base == ".." {
		return ""
	}
	f, err := os.Open(dirOrDot(dir))
	if err != nil {
		return ""
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxSiblings)
	s := yamlnode.Suggest(base, names)
	if s == "" {
		return ""
	}
	return dir + s
}

// dirOrDot is dir, "." for the current directory.
func dirOrDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
