package plugin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/childproc"
	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
)

// ManifestFile is the manifest name inside .kitsoki/plugins/<dir>/.
const ManifestFile = "manifest.yaml"

// defaultHookTimeout bounds one external hook call when the manifest sets
// no entry.timeout_ms.
const defaultHookTimeout = 5 * time.Second

// Manifest is an external plugin's manifest.yaml.
type Manifest struct {
	ID       string         `yaml:"id"`
	Version  string         `yaml:"version"`
	Summary  string         `yaml:"summary"`
	Provides []string       `yaml:"provides"`
	Requires []string       `yaml:"requires"`
	Hooks    []ManifestHook `yaml:"hooks"`
	// Hosts are the host handlers the plugin serves out of process
	// (host_provider.go): exact names or namespaces ("host.git" serves
	// host.git.push by prefix).
	Hosts []string      `yaml:"hosts"`
	Entry ManifestEntry `yaml:"entry"`

	// Path is the manifest file; Dir its directory (the process runs there).
	Path string `yaml:"-"`
	Dir  string `yaml:"-"`
}

// ManifestHook is one hook registration of an external plugin.
type ManifestHook struct {
	Point   Point  `yaml:"point"`
	OnError string `yaml:"on_error"`
}

// ManifestEntry says how to start the plugin process.
type ManifestEntry struct {
	Command   string   `yaml:"command"`
	Args      []string `yaml:"args"`
	TimeoutMS int      `yaml:"timeout_ms"`
	// SHA256 optionally pins the command's program file (64 hex digits):
	// it is hashed before every start and a different digest refuses it.
	SHA256 string `yaml:"sha256"`
}

// Timeout is the per-call timeout of a hook call.
func (m *Manifest) Timeout() time.Duration { return m.timeoutOr(defaultHookTimeout) }

// timeoutOr is entry.timeout_ms, or def when it is unset.
func (m *Manifest) timeoutOr(def time.Duration) time.Duration {
	if m.Entry.TimeoutMS > 0 {
		return time.Duration(m.Entry.TimeoutMS) * time.Millisecond
	}
	return def
}

// On-error policies of a hook.
const (
	onErrorContinue = "continue"
	onErrorVeto     = "veto"
)

// idRe is compiled on first use, not at start-up: its {0,63} repetition
// makes it a costly pattern to compile.
var idRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`) })

// parseManifest parses and checks a manifest; path labels errors.
func parseManifest(path string, data []byte) (*Manifest, error) {
	var doc yaml.Node
	if err := yamlnode.UnmarshalPlain(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %s", path, yamlnode.ErrText(err))
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: the manifest is empty; give it id, entry.command and hooks or hosts", path)
	}
	if at := yamlnode.AliasTextFileOver(&doc); at != nil {
		return nil, fmt.Errorf("%s:%d: %s", path, at.Line, yamlnode.AliasTextMsg("manifest", ""))
	}
	if k := yamlnode.ComplexKey(&doc); k != nil {
		return nil, fmt.Errorf("%s:%d:%d: %s", path, k.Line, k.Column, yamlnode.ComplexKeyMsg("plugin manifest"))
	}
	if at, msg := yamlnode.RepeatedKey(&doc, reflect.TypeFor[Manifest](), "plugin manifest"); at != nil {
		return nil, fmt.Errorf("%s:%d:%d: %s", path, at.Line, at.Column, msg)
	}
	m, err := readManifest(yamlnode.NewFileWalker(path, len(data)), doc.Content[0])
	if err != nil {
		return nil, err
	}
	m.Path = path
	m.Dir = filepath.Dir(path)
	switch {
	case !idRe().MatchString(m.ID):
		return nil, fmt.Errorf("%s: id %q must be lowercase letters, digits, '.', '_' or '-' (at most 64)", path, m.ID)
	case m.Entry.Command == "":
		return nil, fmt.Errorf("%s: entry.command is required", path)
	case m.Entry.TimeoutMS < 0:
		return nil, fmt.Errorf("%s: entry.timeout_ms must not be negative", path)
	case childproc.CheckPin(m.Entry.SHA256) != nil:
		return nil, fmt.Errorf("%s: entry.%v", path, childproc.CheckPin(m.Entry.SHA256))
	case len(m.Hooks) == 0 && len(m.Hosts) == 0:
		return nil, fmt.Errorf("%s: hooks: must register at least one hook point (or hosts: at least one host handler)", path)
	}
	if err := checkManifestHosts(m); err != nil {
		return nil, err
	}
	for i := range m.Hooks {
		h := &m.Hooks[i]
		if !h.Point.valid() {
			return nil, fmt.Errorf("%s: hooks[%d].point %q is not a hook point; use one of %v", path, i, h.Point, allPoints)
		}
		switch h.OnError {
		case "":
			h.OnError = onErrorContinue
		case onErrorContinue, onErrorVeto:
		default:
			return nil, fmt.Errorf("%s: hooks[%d].on_error %q must be continue or veto", path, i, h.OnError)
		}
	}
	m.Provides, m.Requires = orEmpty(m.Provides), orEmpty(m.Requires)
	return m, nil
}

// discoverManifests reads every <dir>/*/manifest.yaml, sorted by directory
// name. Unreadable or malformed manifests become warnings.
func discoverManifests(root *safefile.Root, dir string) ([]*Manifest, []Warning) {
	paths, w := manifestPaths(root, dir)
	if w != nil {
		return nil, []Warning{*w}
	}
	var out []*Manifest
	var warns []Warning
	for _, p := range paths {
		data, err := readConfined(root, p)
		if err != nil {
			if errors.Is(err, safefile.ErrOutsideRoot) || !errors.Is(err, fs.ErrNotExist) {
				warns = append(warns, Warning{File: p, Message: "external plugin skipped: " + outsideText(root, err)})
			}
			continue
		}
		m, err := parseManifest(p, data)
		if err != nil {
			warns = append(warns, Warning{File: p, Message: "external plugin skipped: malformed manifest: " + err.Error()})
			continue
		}
		out = append(out, m)
	}
	return out, warns
}

// manifestPaths lists <dir>/<entry>/manifest.yaml for each entry of dir
// that is a directory, sorted by name: a link is not followed, and a
// repository directory (inside root) is listed through root, so nothing a
// link leads to outside the checkout is listed, opened or read (w says
// why dir was not listed; a missing dir has no manifest).
func manifestPaths(root *safefile.Root, dir string) (paths []string, w *Warning) {
	var entries []fs.DirEntry
	var err error
	if abs, aerr := filepath.Abs(dir); aerr == nil && root != nil && inRoot(root, abs) {
		entries, err = root.ReadDir(abs, 0)
	} else {
		entries, err = os.ReadDir(dir)
	}
	switch {
	case errors.Is(err, safefile.ErrOutsideRoot):
		return nil, &Warning{File: dir, Message: "external plugins not looked for: " + outsideText(root, err)}
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, &Warning{File: dir, Message: "cannot list external plugins: " + safefile.ErrText(err)}
	}
	for _, e := range entries { // sorted by name
		if e.IsDir() {
			paths = append(paths, filepath.Join(dir, e.Name(), ManifestFile))
		}
	}
	return paths, nil
}

func inRoot(root *safefile.Root, abs string) bool {
	_, in := root.Rel(abs)
	return in
}
