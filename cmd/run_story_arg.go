package cmd

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/pkg/validate"
)

// checkStoryArg checks the STORY argument of run and mcp serve before
// anything is loaded, with validate's wording: "-" (stories are files
// beside their app.yaml, never standard input), a missing path, a
// directory without app.yaml. Each is a usage error (exit 2).
func checkStoryArg(path string) error {
	if path == "-" {
		return usagef("-: stories are not read from standard input (prompts, schemas and includes are files beside %s); pass the story directory or its %s", validate.StoryFile, validate.StoryFile)
	}
	if strings.HasSuffix(path, "...") {
		return usagef("%s: one story is run at a time; pass a story directory or its %s", path, validate.StoryFile)
	}
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return usagef("%s: no such file or directory", path)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return usagef("%s: %v", path, err)
	}
	if fi.IsDir() {
		if _, err := os.Stat(filepath.Join(path, validate.StoryFile)); err != nil {
			return usagef("%s: not a story directory (no %s); pass a story directory or its %s", path, validate.StoryFile, validate.StoryFile)
		}
	}
	return nil
}

