package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
	"kitsoki/pkg/validate"
)

// runStoryFix is what the STORY argument of run (and the commands taking
// one story) may be.
const runStoryFix = "pass a story directory or its " + validate.StoryFile

// checkStoryArg checks the STORY argument of run and mcp serve before
// anything is loaded, with validate's wording (usage errors).
func checkStoryArg(path string) error {
	if path == "-" {
		return usagef("-: stories are not read from standard input (prompts, schemas and includes are files beside %s); pass the story directory or its %s", validate.StoryFile, validate.StoryFile)
	}
	if strings.HasSuffix(path, "...") {
		return usagef("%s: one story is run at a time; pass a story directory or its %s", path, validate.StoryFile)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return usagef("%v", validate.StatError(path, err, runStoryFix))
	}
	if fi.IsDir() {
		// Lstat, as validate.Expand: a link out is refused by the load
		// whether its target exists or not
		if _, err := os.Lstat(filepath.Join(path, validate.StoryFile)); err != nil {
			return usagef("%s: not a story directory (no %s); %s", path, validate.StoryFile, runStoryFix)
		}
	}
	if fe := validate.AsFixture(path); fe != nil {
		return usagef("%v", fe)
	}
	return nil
}

// notLoaded prints the errors of a *compose.LoadError and returns them
// with the message naming them; ok is false for any other error.
func notLoaded(stderr io.Writer, path string, err error) (msg string, ds []diag.Diagnostic, ok bool) {
	le, ok := errors.AsType[*compose.LoadError](err)
	if !ok {
		return "", nil, false
	}
	_ = diag.WriteHuman(stderr, le.Diagnostics, diag.HumanOptions{})
	return fmt.Sprintf("%s: the story does not load (%d error(s)); see `kitsoki validate %s`", path, len(le.Diagnostics), path), le.Diagnostics, true
}

// storyManifest is the app.yaml a story argument names: the file itself,
// or the one in the directory it names.
func storyManifest(arg string) (string, error) {
	if _, err := os.Stat(arg); err != nil {
		return "", usagef("%v", validate.StatError(arg, err, runStoryFix))
	}
	return story.ManifestPath(arg), nil
}

// resolvePlan resolves ld's plugin assembly under the operator profile
// (o.Profile).
func resolvePlan(ld *compose.Loaded, o compose.ResolveOptions) (*compose.Plan, error) {
	plan, err := compose.ResolveWith(ld, o)
	if pe, ok := errors.AsType[*plugin.ProfileError](err); ok && pe.ReadErr != nil {
		return nil, profileReadError(o.Profile, pe)
	} else if err != nil {
		return nil, usagef("plugin profile:\n%v", err)
	}
	return plan, nil
}

// profileUsageError is the usage error of a profile the assembly refused,
// printing a malformed one's diagnostics first.
func profileUsageError(stderr io.Writer, flagPath string, err error) error {
	pe, ok := errors.AsType[*plugin.ProfileError](err)
	switch {
	case ok && pe.ReadErr != nil:
		return profileReadError(flagPath, pe)
	case ok:
		_ = diag.WriteHuman(stderr, pe.Diagnostics, diag.HumanOptions{})
		return usagef("the plugin profile is malformed (%d problem(s)); fix it or pass another with --profile", len(pe.Diagnostics))
	}
	return usagef("plugin profile: %v", err)
}

// sameProfileFile reports whether the unreadable profile is the one
// --profile names (another layer's is named by its own path).
func sameProfileFile(file, flagPath string) bool {
	a, err1 := filepath.Abs(file)
	b, err2 := filepath.Abs(flagPath)
	return file == flagPath || (err1 == nil && err2 == nil && a == b)
}

// profileReadError is the usage error for a plugin profile that could not
// be read at all (a missing --profile file): the reason, not "malformed".
func profileReadError(flagPath string, pe *plugin.ProfileError) error {
	file := flagPath
	if len(pe.Diagnostics) > 0 && pe.Diagnostics[0].File != "" {
		file = pe.Diagnostics[0].File
	}
	if flagPath != "" && sameProfileFile(file, flagPath) {
		return usagef("--profile %s: the plugin profile cannot be read: %v; fix the path or pass another with --profile", file, pe.ReadErr)
	}
	return usagef("%s: the plugin profile cannot be read: %v; fix or remove the file", file, pe.ReadErr)
}
