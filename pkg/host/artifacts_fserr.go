package host

import (
	"errors"
	"io/fs"
	"path/filepath"

	"kitsoki/internal/safefile"
)

// A file built-in (host.append_to_file, host.artifacts_dir) that the file
// system refuses answers as upstream's: a domain error (the call's answer,
// not a failure of the harness, so the turn keeps its view from before
// dispatch), worded with the path as the story named it, never the run's
// working directory it was resolved under (conformance file-errors-domain).

// shownAs is p, a path under the working directory wd, as a story that
// named a path of the form given would see it: relative to wd when given
// is relative, else absolute as it is.
func shownAs(p, wd, given string) string {
	if filepath.IsAbs(given) {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

// fsErrText is err as "<op> <path>: <reason>", the path shown as given
// names its kind (shownAs); an error that names no path is its reason.
func fsErrText(err error, wd, given string) string {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Op + " " + shownAs(pe.Path, wd, given) + ": " + pe.Err.Error()
	}
	return safefile.ErrText(err)
}
