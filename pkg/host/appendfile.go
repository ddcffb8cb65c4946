package host

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"

	"go.yaml.in/yaml/v3"
)

// appendFileHandler serves host.append_to_file (story-runtime.md §2.8): a
// "bug file" with front matter, one "## Comment <time> by <author>"
// section per call. The file is confined to the run's working directory.
type appendFileHandler struct {
	budget *writeBudget // nil = unlimited
}

func (h appendFileHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = "host.append_to_file"
	args := c.Args
	thread := strArg(args, "thread")
	if strings.TrimSpace(thread) == "" {
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
	path, err := confine(name, "thread", wd, thread)
	if err != nil {
		return domainErr("%v", err), nil
	}
	author := cmp.Or(strArg(args, "author"), "kitsoki")
	now := c.Env.now().UTC().Format(time.RFC3339)
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))

	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Result{}, fmt.Errorf("%s: create %s: %v", name, filepath.Dir(path), err)
	}
	old, err := safefile.ReadFile(path, safefile.Data)
	if err != nil && !os.IsNotExist(err) {
		return Result{}, fmt.Errorf("%s: read %s: %v", name, path, safefile.ErrText(err))
	}
	var b strings.Builder
	if len(old) == 0 {
		front, err := yaml.Marshal(map[string]string{"filed_at": now, "status": "open", "title": stem})
		if err != nil {
			return Result{}, fmt.Errorf("%s: front matter for %s: %v", name, path, err)
		}
		fmt.Fprintf(&b, "---\n%s---\n# %s\n", front, stem)
	} else {
		b.Write(old)
		if !strings.HasSuffix(string(old), "\n") {
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "\n## Comment %s by %s\n\n", now, author)
	if t := strArg(args, "title"); t != "" {
		b.WriteString("### " + t + "\n\n")
	}
	b.WriteString(strings.TrimRight(bodyText(body), "\n"))
	b.WriteString("\n")
	if p := strArg(args, "phase_id"); p != "" {
		b.WriteString("\n_phase: " + p + "_\n")
	}
	content := b.String()
	if err := h.budget.take(name, thread, int64(len(old)), int64(len(content))); err != nil {
		return domainErr("%v", err), nil
	}
	if err := atomicfile.Write(path, []byte(content), 0o644); err != nil {
		h.budget.refund(int64(len(old)), int64(len(content)))
		return Result{}, fmt.Errorf("%s: write %s: %v", name, path, err)
	}
	n := strings.Count("\n"+content, "\n## Comment ") // the lines that start a comment section
	return Result{Data: map[string]any{"ok": true, "message_id": stem + "#" + strconv.Itoa(n)}}, nil
}
