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
	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
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
		fmt.Fprintf(&b, "---\nfiled_at: %q\nstatus: open\ntitle: %s\n---\n# %s\n", now, yamlScalar(stem), stem)
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

// plainYAML is a string YAML reads as it is written: letters, digits, '_',
// '-', '.' and inner spaces, starting with a letter, digit or '_'.
var plainYAML = &lazyre.Regexp{Expr: `^[A-Za-z0-9_](?:[A-Za-z0-9_. -]*[A-Za-z0-9_.-])?$`}

// yamlScalar quotes s unless it is a plain, unambiguous YAML string.
func yamlScalar(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "null", "on", "off":
		return strconv.Quote(s)
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil || !plainYAML.MatchString(s) {
		return strconv.Quote(s)
	}
	return s
}
