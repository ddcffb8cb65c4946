package lint

import (
	"io/fs"
	"path/filepath"
	"strings"

	"kitsoki/pkg/story"
)

// agentVerbs are the host.agent.<verb> verbs kitsoki run dispatches.
var agentVerbs = []string{"ask", "decide", "extract", "task", "converse"}

// upstreamOnlyVerbs exist in the upstream engine but are not dispatched by
// kitsoki run: accepted with a warning.
var upstreamOnlyVerbs = []string{"ask_with_mcp"}

// searchVerb is host.agent.search's verb: a registry handler (not the
// agent layer), which needs routing.embedding to answer anything but an
// error.
const searchVerb = "search"

// agentVerb returns the verb of a host.agent.<verb> invoke, or "".
func agentVerb(invoke string) string {
	if !strings.HasPrefix(invoke, "host.agent.") {
		return ""
	}
	return strings.TrimPrefix(invoke, "host.agent.")
}

// fileRef is a prompt/schema path named by an agent invoke's with: block.
type fileRef struct {
	key    string // with path, e.g. "schema", "context.prompt", "acceptance.schema"
	path   string
	isFile bool // prompt_path/schema: must be a file; prompt: a file or inline text
	schema bool
}

// promptRefs returns the literal prompt and schema references of an agent
// effect, under with:, with.context and with.acceptance.
func promptRefs(e *story.Effect) []fileRef {
	var out []fileRef
	verb := agentVerb(e.Invoke)
	scan := func(m map[string]any, prefix string) {
		for _, k := range []string{"prompt", "prompt_path", "schema"} {
			s, ok := m[k].(string)
			if prefix == "" && (k == "schema" && verb != "extract" || k == "prompt" && verb == "decide") {
				s = strings.TrimSpace(s) // as read at run time
			}
			if !ok || s == "" || story.IsTemplated(s) || strings.HasPrefix(s, "@") {
				continue // empty, templated, or a namespaced (@shared/, @import/) prompt
			}
			r := fileRef{key: prefix + k, path: s, schema: k == "schema", isFile: k != "prompt"}
			if k == "prompt" {
				r.isFile = story.LooksLikePath(s)
			}
			out = append(out, r)
		}
	}
	scan(e.With, "")
	for _, sub := range []string{"context", "acceptance"} {
		if m, ok := e.With[sub].(map[string]any); ok {
			scan(m, sub+".")
		}
	}
	return out
}

// eachFileRef visits the promptRefs of every host.agent.* invoke outside
// the phase templates.
func (c *checker) eachFileRef(fn func(e *story.Effect, site effSite, r fileRef)) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if !strings.HasPrefix(e.Invoke, "host.agent.") || site.Template {
			return
		}
		for _, r := range promptRefs(e) {
			fn(e, site, r)
		}
	})
}

// existingFile resolves a story-relative (or absolute) path and reports
// whether it is an existing file other than a directory. Each path is
// asked through the project root, never by path: a warning must not tell
// a stranger's pull request what the CI machine holds outside it (the
// confining rules report those), and a link out, there when the story
// loaded or swapped in since, is no file whether its target exists, is a
// directory or is missing.
func (c *checker) existingFile(p string) (string, bool) {
	if filepath.IsAbs(p) {
		return p, c.fileInside(p)
	}
	dirs := []string{c.st.Dir} // then the overlay and shared dirs, as the engine
	if pc := c.st.Prompts; pc != nil {
		if pc.Overlay != "" {
			dirs = append(dirs, filepath.Join(c.st.Dir, pc.Overlay))
		}
		for _, d := range pc.Shared {
			dirs = append(dirs, filepath.Join(c.st.Dir, d))
		}
	}
	for _, d := range dirs {
		if f := filepath.Join(d, p); c.fileInside(f) {
			return f, true
		}
	}
	return filepath.Join(c.st.Dir, p), false
}

// fileInside reports whether the absolute path p is a file other than a
// directory, stat'ed through the project root (a path or link leaving it
// is none).
func (c *checker) fileInside(p string) bool {
	fi, err := c.statInside(p)
	return err == nil && !fi.IsDir()
}

// statInside is os.Stat of the absolute path p through the project root:
// a path or link leaving it is [safefile.ErrOutsideRoot], whatever lies
// outside.
func (c *checker) statInside(p string) (fs.FileInfo, error) {
	if c.beforeStat != nil {
		c.beforeStat(p)
	}
	return c.st.FileRoot().Stat(p)
}

func withString(e *story.Effect, key string) string {
	s, _ := e.With[key].(string)
	return s
}
