package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleAgentFile = &Rule{ID: "agent-file", Severity: diag.Warning, LintOnly: true,
	Summary: "prompt, prompt_path and schema files of agent invokes (and app.context_path) exist; an imported child's inline prompt text, which both engines re-base into a path against the child's directory, is named",
	Example: "with: {schema: schemas/missing.json}"}

// checkAgentFiles: the literal prompt and schema files of agent invokes
// exist; upstream only finds a missing one at run time.
func checkAgentFiles(c *checker) {
	c.eachFileRef(func(e *story.Effect, site effSite, r fileRef) {
		if !r.isFile {
			c.inlinePromptRebased(e, site, r)
			return
		}
		if _, ok := c.existing(r.path); ok {
			return
		}
		// one look through the project root: a link out (prompt-root's)
		// is skipped whatever lies outside, a directory there or not
		fi, err := c.statInside(c.storyPath(r.path))
		if err != nil && (!errors.Is(err, fs.ErrNotExist) || errors.Is(err, safefile.ErrOutsideRoot)) {
			return
		}
		at := c.src.valuePos(e.WithPos(r.key), r.path, 1, 1)
		if err == nil && fi.IsDir() {
			c.rep.AddAt(at, site.Place(), diag.Error, ruleAgentFile, "%s: with.%s %q: is a directory; name a file (paths are relative to the story directory %s)", site.String(), r.key, r.path, c.st.Dir)
			return
		}
		c.rep.Warnf(at, ruleAgentFile, "%s", c.missingFileMsg(site, r))
	})
	if app := c.st.App; app.ContextPath != "" && !story.IsTemplated(app.ContextPath) {
		if _, ok := c.existing(app.ContextPath); !ok {
			c.rep.Warnf(app.Pos, ruleAgentFile, "app.context_path %q: file not found (paths are relative to the story directory)", app.ContextPath)
		}
	}
}

// inlinePromptRebased warns at an imported child's relative with.prompt
// of inline text that names no file: both engines join it to the child's
// directory whatever it holds, so the agent is sent a path, not the text
// (conformance child-prompt-rebased; docs/compat/fold.md).
func (c *checker) inlinePromptRebased(e *story.Effect, site effSite, r fileRef) {
	if !c.st.Imported() || c.st.Importer() == nil || filepath.IsAbs(r.path) {
		return
	}
	if _, ok := c.existing(r.path); ok {
		return
	}
	at := c.src.valuePos(e.WithPos(r.key), r.path, 1, 1)
	c.rep.WarnAt(at, site.Place(), ruleAgentFile, "%s: with.%s %q: inline prompt text in an imported story: both engines re-base it as a path against the child's directory, so the agent is sent %q, not the text; put the text in a file beside the child and name the file, or give the prompt from a template ({{ }})", site.String(), r.key, clipPrompt(r.path), c.st.Dir+string(filepath.Separator)+clipPrompt(r.path))
}

// clipPrompt is a prompt's text cut to a line's length for a message.
func clipPrompt(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// scriptPath is a host.starlark.run script path p as both engines resolve
// it: relative to the top story's directory (an import does not re-base
// it, as it does prompt and schema paths), unless it is absolute; and
// that directory, the root the script must stay inside.
func (c *checker) scriptPath(p string) (abs, root string) {
	root = topOf(c.st).Dir
	if filepath.IsAbs(p) {
		return p, root
	}
	return filepath.Join(root, p), root
}

// topPath names abs, a file of the top story's directory (a script), as
// the top manifest is named (relative when it is), else as displayPath.
func (c *checker) topPath(abs string) string {
	top := topOf(c.st)
	if rel, err := filepath.Rel(top.Dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.Join(filepath.Dir(top.File), rel)
	}
	return c.displayPath(abs)
}

// topOf is the story at the top of st's import tree.
func topOf(st *story.Story) *story.Story {
	for st.Importer() != nil {
		st = st.Importer()
	}
	return st
}

// storyPath is p relative to the story directory, unless it is absolute.
func (c *checker) storyPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.st.Dir, p)
}

// missingFileMsg says what a missing prompt/schema file does at run time
// and how to fix it.
func (c *checker) missingFileMsg(site effSite, r fileRef) string {
	what := "prompt"
	if r.schema {
		what = "schema"
	}
	msg := fmt.Sprintf("%s: with.%s %q: file not found (paths are relative to the story directory %s)", site.String(), r.key, r.path, c.st.Dir)
	if c.st.Imported() && c.st.Importer() != nil && !filepath.IsAbs(r.path) {
		msg = fmt.Sprintf("%s: with.%s %q: file not found: importing this story re-bases the path to %s (against the child's directory), where no file exists", site.String(), r.key, r.path, filepath.Join(c.st.Dir, r.path))
	}
	return msg + fmt.Sprintf("; upstream loads the story, but this call fails every time it runs (the %s cannot be read) — create the file or correct the path", what)
}
