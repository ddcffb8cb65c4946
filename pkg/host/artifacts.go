package host

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
)

// artifactsHandler serves host.artifacts_dir (story-runtime.md §2.8):
// markdown chunks appended (or replaced) in <root>/<thread>.md, or a media
// file copied to <root>/<thread><ext>.
type artifactsHandler struct {
	getenv  func(string) string
	budget  *writeBudget     // nil = unlimited
	checked func(abs string) // tests: fileRoot.checked
}

// artifactSep separates chunks of one artifact file.
const artifactSep = "\n\n---\n\n"

func (h artifactsHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = "host.artifacts_dir"
	args := c.Args
	// as upstream: thread, src_path and mode are read trimmed, the other
	// arguments (artifacts_root, body, title, label) as given (conformance
	// file-args-trimmed)
	thread := strings.TrimSpace(strArg(args, "thread"))
	if thread == "" {
		return domainErr("%s: thread argument is required", name), nil
	}
	wd, err := c.Env.workDir()
	if err != nil {
		return Result{}, fmt.Errorf("%s: %v", name, err)
	}
	root, shown, base, err := h.root(args, wd)
	if err != nil {
		return domainErr("%v", err), nil
	}
	if src := strings.TrimSpace(strArg(args, "src_path")); src != "" {
		return h.media(c, wd, base, root, shown, thread, src)
	}
	body, ok := args["body"]
	if s, isStr := body.(string); !ok || body == nil || isStr && strings.TrimSpace(s) == "" {
		// as upstream: a blank string is no body, any other value is
		// one (conformance mutate-artifact-body)
		return domainErr("%s: body argument is required", name), nil
	}
	file := thread
	if filepath.Ext(file) == "" && !strings.ContainsAny(file, `/\`) {
		file += ".md"
	}
	fr, err := openFileRoot(base, h.checked)
	if err != nil {
		return domainErr("%s: mkdir %s: %s", name, shown, fsErrText(err, wd, shown)), nil
	}
	defer fr.Close()
	path, err := fr.confineIn(name, "thread", root, file)
	if err != nil {
		return domainErr("%v", err), nil
	}
	mode := "append" // as upstream, any mode but replace (conformance host-args-typed)
	if strings.TrimSpace(strArg(args, "mode")) == "replace" {
		mode = "replace"
	}
	var chunk strings.Builder
	if t := strArg(args, "title"); t != "" {
		chunk.WriteString("### " + t + "\n\n")
	}
	chunk.WriteString(strings.TrimRight(bodyText(body), "\n")) // as upstream (conformance file-args-trimmed)
	if p := strArg(args, "phase_id"); p != "" {
		chunk.WriteString("\n\n_phase: " + p + "_")
	}
	chunk.WriteString("\n")

	// as upstream: the root is made, a thread's own subdirectories are not
	// (conformance artifacts-thread-subdir); a path the file system
	// refuses is a domain error naming it as the result would show it
	// (conformance file-errors-domain)
	if err := fr.MkdirAllWritten(root, rootWritten(shown, base, wd)); err != nil {
		return domainErr("%s: mkdir %s: %s", name, shown, fsErrText(err, wd, shown)), nil
	}
	shownPath := filepath.Join(shown, file)
	if res, ok := chunkRefused(fr, path, shownPath, mode); !ok {
		return res, nil
	}
	n := 1
	var content string
	oldSize := fr.existingSize(path)
	if mode == "append" {
		old, err := fr.ReadFile(path, safefile.Data)
		if err != nil && !os.IsNotExist(err) {
			return domainErr("%s: read %s: %s", name, shownPath, safefile.ErrText(err)), nil
		}
		oldSize = int64(len(old))
		if len(old) > 0 {
			n = strings.Count(string(old), "\n---\n") + 2
			content = string(old) + artifactSep
		}
	}
	content += chunk.String()
	if err := h.budget.take(name, file, oldSize, int64(len(content))); err != nil {
		return domainErr("%v", err), nil
	}
	if err := fr.WriteFile(path, []byte(content)); err != nil {
		h.budget.refund(oldSize, int64(len(content)))
		return domainErr("%s: %s %s: open %s: %v", name, chunkOp(mode), shownPath, shownPath, err), nil
	}
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	return Result{Data: map[string]any{
		"ok":         true,
		"path":       filepath.Join(shown, file),
		"message_id": fmt.Sprintf("%s#%d", stem, n),
	}}, nil
}

// chunkRefused is upstream's refusal of the file a markdown chunk goes to
// before it is read or written, worded with shownPath (the root as given
// joined with the file): a path that cannot be stat'd, a directory in its
// place or a missing thread subdirectory (conformance file-errors-domain,
// artifacts-thread-subdir); ok is true when there is none.
func chunkRefused(fr *fileRoot, path, shownPath, mode string) (res Result, ok bool) {
	const name = "host.artifacts_dir"
	op := chunkOp(mode)
	switch fi, err := fr.Stat(path); {
	case err == nil && fi.IsDir():
		return domainErr("%s: %s %s: open %s: is a directory", name, op, shownPath, shownPath), false
	case err != nil && !os.IsNotExist(err):
		return domainErr("%s: stat %s: stat %s: %s", name, shownPath, shownPath, safefile.ErrText(err)), false
	case err != nil:
		if st, err := fr.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
			return domainErr("%s: %s %s: open %s: no such file or directory", name, op, shownPath, shownPath), false
		}
	}
	return Result{}, true
}

// chunkOp is the step upstream names when writing a chunk fails: its
// replace writes the file whole, its append opens it.
func chunkOp(mode string) string {
	if mode == "replace" {
		return "write"
	}
	return "open"
}

// root is where artifacts go, how the result's path shows it, and the
// directory the call's files are confined to (base, opened as a
// [fileRoot]): the artifacts_root argument (confined to the working
// directory, the base), then $KITSOKI_ARTIFACTS_ROOT (the operator's
// choice, trusted: the base itself), then <workdir>/.artifacts.
func (h artifactsHandler) root(args map[string]any, wd string) (root, shown, base string, err error) {
	if shown = strArg(args, "artifacts_root"); shown != "" {
		root, err = confine("host.artifacts_dir", "artifacts_root", wd, shown)
		return root, shown, wd, err
	}
	if shown = h.getenv("KITSOKI_ARTIFACTS_ROOT"); shown != "" {
		root = shown
		if !filepath.IsAbs(shown) {
			root = filepath.Join(wd, shown)
		}
		return filepath.Clean(root), shown, filepath.Clean(root), nil
	}
	root = filepath.Join(wd, ".artifacts")
	return root, root, wd, nil
}

// rootWritten is the artifacts_root argument as written, relative to the
// directory the root is confined to (base), when that is the working
// directory; "" otherwise (the operator's root is made as cleaned).
func rootWritten(shown, base, wd string) string {
	if base != wd {
		return ""
	}
	return shown
}

var mediaKinds = map[string]bool{"video": true, "image": true, "pdf": true, "html": true, "slideshow": true}

// media copies src_path (confined to the working directory) to
// <root>/<thread><ext>, base being the directory root is confined to.
func (h artifactsHandler) media(c *Call, wd, base, root, shown, thread, src string) (Result, error) {
	const name = "host.artifacts_dir"
	// upstream's checks and texts: the kind trimmed and lower-cased
	kind := strings.ToLower(strings.TrimSpace(strArg(c.Args, "kind")))
	switch {
	case kind == "":
		return domainErr("%s: kind argument is required when src_path is set (one of video/image/pdf/html/slideshow)", name), nil
	case !mediaKinds[kind]:
		return domainErr("%s: unsupported kind %q (must be video/image/pdf/html/slideshow)", name, kind), nil
	}
	wr, err := openFileRoot(wd, h.checked)
	if err != nil {
		return Result{}, fmt.Errorf("%s: the working directory: %v", name, err)
	}
	defer wr.Close()
	from, err := wr.confineWritten(name, "src_path", src) // upstream stats it as written
	if errors.Is(err, fs.ErrNotExist) {
		return domainErr("%s: src_path %q: stat %s: %v", name, src, src, safefile.ErrText(err)), nil
	}
	if err != nil {
		return domainErr("%v", err), nil
	}
	ext := filepath.Ext(from)
	file := thread + ext
	// as upstream: the file joined under the root (an absolute thread
	// too), refused when that leaves it (conformance file-args-trimmed)
	if !safefile.Within(root, filepath.Join(root, file)) {
		return domainErr("%s: destination path escapes artifacts root: %q", name, filepath.Join(shown, file)), nil
	}
	fr := wr
	if base != wd {
		if fr, err = openFileRoot(base, h.checked); err != nil {
			return domainErr("%s: mkdir %s: %s", name, shown, fsErrText(err, wd, shown)), nil
		}
		defer fr.Close()
	}
	to, err := fr.confineIn(name, "thread", root, filepath.Join(root, file))
	if err != nil {
		return domainErr("%v", err), nil
	}
	in, st, err := wr.OpenRegular(from)
	if errors.Is(err, fs.ErrNotExist) { // upstream stats the path as written first
		return domainErr("%s: src_path %q: stat %s: %v", name, src, src, safefile.ErrText(err)), nil
	}
	if err != nil {
		return domainErr("%s: src_path %q: %v", name, src, safefile.ErrText(err)), nil
	}
	if in == nil {
		return domainErr("%s: src_path %q is not a regular file", name, src), nil
	}
	defer in.Close()
	size, oldSize := st.Size(), fr.existingSize(to)
	if err := h.budget.take(name, file, oldSize, size); err != nil {
		return domainErr("%v", err), nil
	}
	charged := false
	defer func() {
		if !charged {
			h.budget.refund(oldSize, size)
		}
	}()
	// as upstream: the root is made, not a thread's subdirectories, and a
	// copy the file system refuses is a domain error (conformance
	// file-errors-domain)
	if err := fr.MkdirAllWritten(root, rootWritten(shown, base, wd)); err != nil {
		return domainErr("%s: mkdir %s: %s", name, shown, fsErrText(err, wd, shown)), nil
	}
	copyErr := func(why string) Result {
		return domainErr("%s: copy %q -> %q: %s", name, src, to, why)
	}
	switch fi, err := fr.Stat(to); {
	case err == nil && fi.IsDir():
		return copyErr("open " + to + ": is a directory"), nil
	case err != nil && !os.IsNotExist(err):
		return copyErr("open " + to + ": " + safefile.ErrText(err)), nil
	case err != nil:
		if st, err := fr.Stat(filepath.Dir(to)); err != nil || !st.IsDir() {
			return copyErr("open " + to + ": no such file or directory"), nil
		}
	}
	// Under a budget the copy stops one byte past the size charged, so a
	// source that grows while it is copied (or a pipe) fails instead of
	// passing the budget.
	var r io.Reader = in
	if h.budget != nil {
		r = io.LimitReader(in, size+1)
	}
	sum, head := sha256.New(), &headBytes{max: 512}
	err = fr.WriteFunc(to, func(w io.Writer) error {
		copied, err := io.Copy(io.MultiWriter(w, sum, head), r)
		if err == nil && h.budget != nil && copied > size {
			err = fmt.Errorf("it grew past its %d bytes while it was copied", size)
		}
		return err
	})
	if err != nil {
		return copyErr(err.Error()), nil
	}
	charged = true
	// as upstream: the extension's type, else the content's; the id is the
	// thread and the first 8 hex digits of the content's sha256; the label
	// only what label: says (conformance artifacts-media-handle)
	mt := cmp.Or(mime.TypeByExtension(ext), http.DetectContentType(head.b))
	return Result{Data: map[string]any{
		"ok":   true,
		"path": to, // absolute, as upstream's copy names it
		"handle": map[string]any{
			"id":   thread + "#" + hex.EncodeToString(sum.Sum(nil))[:8],
			"kind": kind, "mime": mt, "label": strArg(c.Args, "label"),
		},
	}}, nil
}

// headBytes keeps the first max bytes written to it (a file's head, for
// http.DetectContentType).
type headBytes struct {
	b   []byte
	max int
}

func (h *headBytes) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
