package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"kitsoki/internal/safefile"
)

// appendFileHandler serves host.append_to_file (story-runtime.md §2.8): a
// "bug file" with front matter, one "## Comment <time> by <author>"
// section per call. The file is confined to the run's working directory.
type appendFileHandler struct {
	budget  *writeBudget     // nil = unlimited
	checked func(abs string) // tests: fileRoot.checked
}

func (h appendFileHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = "host.append_to_file"
	args := c.Args
	thread := strings.TrimSpace(strArg(args, "thread")) // as upstream (conformance file-args-trimmed)
	if thread == "" {
		return domainErr("%s: thread argument is required", name), nil
	}
	body := strArg(args, "body")
	if strings.TrimSpace(body) == "" {
		return domainErr("%s: body argument is required", name), nil
	}
	wd, err := c.Env.workDir()
	if err != nil {
		return Result{}, fmt.Errorf("%s: %v", name, err)
	}
	fr, err := openFileRoot(wd, h.checked)
	if err != nil {
		return Result{}, fmt.Errorf("%s: the working directory: %v", name, err)
	}
	defer fr.Close()
	path, err := fr.confineWritten(name, "thread", thread)
	if errors.Is(err, fs.ErrNotExist) {
		// as upstream: the system finds no directory before a ".."
		return domainErr("%s: write: open %s: %s", name, thread, safefile.ErrText(err)), nil
	}
	if err != nil {
		return domainErr("%v", err), nil
	}
	author := cmp.Or(strArg(args, "author"), "kitsoki")
	now := c.Env.now().UTC().Format(time.RFC3339)
	// as upstream: only a ".md" ending is cut (conformance append-file-stem)
	stem := strings.TrimSuffix(filepath.Base(path), ".md")

	// as upstream: the thread's directory is made (all of a thread that
	// ends in a slash), a path the file system refuses is a domain error
	// naming the thread as written (conformance file-errors-domain)
	dir := filepath.Dir(path)
	if strings.HasSuffix(thread, "/") {
		dir = path
	}
	if err := fr.MkdirAll(dir); err != nil {
		return domainErr("%s: mkdir: %s", name, fsErrText(err, wd, thread)), nil
	}
	var old []byte
	switch fi, err := fr.Stat(path); {
	case err == nil && fi.IsDir():
		return domainErr("%s: read: read %s: is a directory", name, thread), nil
	case err == nil:
		if old, err = fr.ReadFile(path, safefile.Data); err != nil {
			return domainErr("%s: read: read %s: %s", name, thread, safefile.ErrText(err)), nil
		}
	case !os.IsNotExist(err):
		// upstream reads no file it cannot stat and fails to write it
		return domainErr("%s: write: open %s: %s", name, thread, safefile.ErrText(err)), nil
	}
	// as upstream: an existing file is read as a bug file and written back
	// whole, the comment added (conformance append-file-rewrite)
	f := &ticket{front: map[string]any{"filed_at": now, "status": "open", "title": stem}, body: "# " + stem}
	if len(old) > 0 {
		if f, err = parseTicket(old); err != nil {
			return domainErr("%s: read: %v", name, err), nil
		}
		if f.front == nil { // a file without front matter gets an empty one
			f.front = map[string]any{}
		}
	}
	var b strings.Builder
	if t := strArg(args, "title"); t != "" {
		b.WriteString("### " + t + "\n\n")
	}
	b.WriteString(strings.TrimRight(bodyText(body), "\n"))
	if p := strArg(args, "phase_id"); p != "" {
		b.WriteString("\n\n_phase: " + p + "_")
	}
	f.comments = append(f.comments, ticketComment{at: c.Env.now(), author: author, body: b.String()})
	rendered, err := f.render()
	if err != nil {
		return Result{}, fmt.Errorf("%s: front matter for %s: %v", name, path, err)
	}
	content := string(rendered)
	if err := h.budget.take(name, thread, int64(len(old)), int64(len(content))); err != nil {
		return domainErr("%v", err), nil
	}
	if err := fr.WriteFile(path, []byte(content)); err != nil {
		h.budget.refund(int64(len(old)), int64(len(content)))
		return domainErr("%s: write: open %s: %v", name, thread, err), nil
	}
	n := strings.Count("\n"+content, "\n## Comment ") // the lines that start a comment section
	return Result{Data: map[string]any{"ok": true, "message_id": stem + "#" + strconv.Itoa(n)}}, nil
}
