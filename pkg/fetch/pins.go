package fetch

import (
	"cmp"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pins"
)

// Environment variables read by this package when the caller leaves the
// matching field empty.
const (
	EnvPins     = "KITSOKI_PINS"      // overlay pin file
	EnvMirror   = "KITSOKI_MIRROR"    // mirror base URL
	EnvCacheDir = "KITSOKI_CACHE_DIR" // cache root
)

// Kind says what an artifact is.
type Kind string

// Artifact kinds, one per pin file.
const (
	KindLlamaServer Kind = "llama-server"
	KindModel       Kind = "model"
	KindShim        Kind = "shim"
)

// Requires lists what a host needs for a llama-server build to load.
type Requires struct {
	// Glibc is the minimum glibc version ("2.34"); the shim cannot help below it.
	Glibc string `yaml:"glibc" json:"glibc,omitempty"`
	// GLIBCXXMinor is the minimum N of GLIBCXX_3.4.N; below it the shim is installed.
	GLIBCXXMinor int `yaml:"glibcxx_minor" json:"glibcxx_minor,omitempty"`
}

// Artifact is one pinned download.
type Artifact struct {
	Kind Kind   `yaml:"-" json:"kind"`
	Key  string `yaml:"-" json:"key"` // platform ("linux/amd64") or model id
	ID   string `yaml:"id" json:"id"`
	// Release names the upstream release (llama-server only).
	Release string `yaml:"release" json:"release,omitempty"`
	URL     string `yaml:"url" json:"url"`
	// SHA256 is the lowercase hex digest of the file as downloaded; empty
	// means unpinned (managed mode refuses it).
	SHA256 string `yaml:"sha256" json:"sha256,omitempty"`
	// Size in bytes; 0 means not recorded (only the digest is checked).
	Size int64 `yaml:"size" json:"size,omitempty"`
	// Format: gguf (a plain file), tar.gz, tar.xz, tar.bz2 or zip.
	Format string `yaml:"format" json:"format"`
	// Members are files an extracted archive must contain.
	Members []string `yaml:"members" json:"members,omitempty"`
	// Extract maps archive member -> output name; when set only these are extracted.
	Extract  map[string]string `yaml:"extract" json:"extract,omitempty"`
	Requires *Requires         `yaml:"requires" json:"requires,omitempty"`
	// Default marks the default model.
	Default bool `yaml:"default" json:"default,omitempty"`
	// Source says where the pin came from (embedded file or overlay path).
	Source string `yaml:"-" json:"source"`
}

// Pinned reports whether the artifact has a digest (managed mode possible).
func (a *Artifact) Pinned() bool { return a.SHA256 != "" }

// label names the artifact in messages as the existing engine does:
// "<id> weights", "llama-server (<goos>/<goarch>)", "libstdc++ shim".
func (a *Artifact) label() string {
	switch a.Kind {
	case KindLlamaServer:
		return "llama-server (" + a.Key + ")"
	case KindShim:
		return "libstdc++ shim"
	}
	return a.ID + " weights"
}

// IsArchive reports whether the artifact is extracted after download.
func (a *Artifact) IsArchive() bool { return a.Format != "gguf" && a.Format != "file" }

// Pins is the merged set of pinned artifacts.
type Pins struct {
	LlamaServers map[string]*Artifact // by "goos/goarch"
	Models       map[string]*Artifact // by model id
	Shims        map[string]*Artifact // by "goos/goarch"
}

// pinFile is the shape of every pin file and of an overlay.
type pinFile struct {
	LlamaServer map[string]*Artifact `yaml:"llama_server"`
	Models      map[string]*Artifact `yaml:"models"`
	Shims       map[string]*Artifact `yaml:"shims"`
}

var (
	hexSHA256  = &lazyre.Regexp{Expr: `^[0-9a-f]{64}$`}
	platformRe = &lazyre.Regexp{Expr: `^[a-z0-9]+/[a-z0-9]+$`}
	formats    = map[string]bool{"gguf": true, "file": true, "tar.gz": true, "tar.xz": true, "tar.bz2": true, "zip": true}
)

// LoadPins returns the embedded pins overlaid with overlayPath. An empty
// overlayPath falls back to $KITSOKI_PINS; when both are empty only the
// embedded pins are used. Overlay entries replace embedded ones by key.
func LoadPins(overlayPath string) (*Pins, error) {
	p := &Pins{LlamaServers: map[string]*Artifact{}, Models: map[string]*Artifact{}, Shims: map[string]*Artifact{}}
	efs := pins.FS()
	names, err := fs.Glob(efs, "*.yaml")
	if err != nil {
		return nil, fmt.Errorf("embedded pins: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		data, err := fs.ReadFile(efs, name)
		if err != nil {
			return nil, fmt.Errorf("embedded pins %s: %w", name, err)
		}
		if err := p.merge(data, "embedded pins/"+name); err != nil {
			return nil, err
		}
	}
	overlayPath = cmp.Or(overlayPath, os.Getenv(EnvPins))
	if overlayPath == "-" {
		return nil, fmt.Errorf("pins overlay -: pin files are not read from standard input; pass the overlay's file path to --pins or %s", EnvPins)
	}
	if overlayPath != "" {
		data, err := safefile.ReadFile(overlayPath, safefile.Data)
		if err != nil {
			return nil, fmt.Errorf("pins overlay %s: %w (set by --pins or %s; fix the path or unset it)", overlayPath, err, EnvPins)
		}
		if err := p.merge(data, overlayPath); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *Pins) merge(data []byte, source string) error {
	var doc yaml.Node
	if err := yamlnode.UnmarshalPlain(data, &doc); err != nil {
		return fmt.Errorf("%s: %s", source, yamlnode.ErrText(err))
	}
	if at := yamlnode.AliasTextFileOver(&doc); at != nil {
		return fmt.Errorf("%s:%d: %s", source, at.Line, yamlnode.AliasTextMsg("pin file", ""))
	}
	if k := yamlnode.ComplexKey(&doc); k != nil {
		return fmt.Errorf("%s:%d:%d: %s", source, k.Line, k.Column, yamlnode.ComplexKeyMsg("pin file"))
	}
	if at, msg := yamlnode.RepeatedKey(&doc, reflect.TypeFor[pinFile](), "pin file"); at != nil {
		return fmt.Errorf("%s:%d:%d: %s", source, at.Line, at.Column, msg)
	}
	var f pinFile
	if len(doc.Content) > 0 {
		var err error
		if f, err = readPinFile(yamlnode.NewFileWalker(source, len(data)), doc.Content[0]); err != nil {
			return err
		}
	}
	add := func(kind Kind, section string, in map[string]*Artifact, out map[string]*Artifact) error {
		for _, k := range slices.Sorted(maps.Keys(in)) {
			a := in[k]
			if a == nil {
				return fmt.Errorf("%s: %s.%s: empty entry (give id, url, sha256, format)", source, section, k)
			}
			a.Kind, a.Key, a.Source = kind, k, source
			if err := a.check(section); err != nil {
				return fmt.Errorf("%s: %w", source, err)
			}
			out[k] = a
		}
		return nil
	}
	// The first error wins; a failed merge discards the whole Pins.
	return cmp.Or(add(KindLlamaServer, "llama_server", f.LlamaServer, p.LlamaServers),
		add(KindModel, "models", f.Models, p.Models),
		add(KindShim, "shims", f.Shims, p.Shims))
}

func (a *Artifact) check(section string) error {
	where := section + "." + a.Key
	return cmp.Or(a.checkSource(where), a.checkFormat(where), a.checkFiles(where))
}

// plainName reports whether s names one file: not empty, no slash, not
// "." or "..".
func plainName(s string) bool {
	return s != "" && !strings.ContainsAny(s, `/\`) && s != "." && s != ".."
}

// checkSource checks the pin's key, id, URL, digest and size.
func (a *Artifact) checkSource(where string) error {
	if a.Kind != KindModel && !platformRe.MatchString(a.Key) {
		return fmt.Errorf("%s: key must be a platform goos/goarch such as linux/amd64", where)
	}
	if a.Kind == KindModel && !plainName(a.Key) {
		return fmt.Errorf("%s: model id must be a plain name without slashes", where)
	}
	if a.ID == "" {
		return fmt.Errorf("%s: id: is required", where)
	}
	if !plainName(a.ID) {
		return fmt.Errorf("%s: id %q must be a plain name without slashes", where, a.ID)
	}
	u, err := url.Parse(a.URL)
	if a.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s: url %q must be an http(s) URL", where, shownURL(a.URL))
	}
	if a.SHA256 != "" && !hexSHA256.MatchString(a.SHA256) {
		return fmt.Errorf("%s: sha256 %q must be 64 lowercase hex characters (or empty for unpinned)", where, a.SHA256)
	}
	if a.Size < 0 {
		return fmt.Errorf("%s: size %d must not be negative (0 means not recorded)", where, a.Size)
	}
	return nil
}

// checkFormat checks the download's format (a model's defaults to gguf;
// anything else must be an archive).
func (a *Artifact) checkFormat(where string) error {
	if a.Format == "" {
		a.Format = "gguf"
		if a.Kind != KindModel {
			return fmt.Errorf("%s: format: is required (tar.gz, tar.xz, tar.bz2 or zip)", where)
		}
	}
	if !formats[a.Format] {
		return fmt.Errorf("%s: format %q is not one of gguf, file, tar.gz, tar.xz, tar.bz2, zip", where, a.Format)
	}
	if a.Kind != KindModel && !a.IsArchive() {
		return fmt.Errorf("%s: format %q: a %s must be an archive", where, a.Format, a.Kind)
	}
	return nil
}

// checkFiles checks the members and extract names an archive pin lists,
// and its glibc requirement.
func (a *Artifact) checkFiles(where string) error {
	for _, m := range a.Members {
		if m == "" || strings.ContainsAny(m, `/\`) {
			return fmt.Errorf("%s: members: %q must be a plain file name", where, m)
		}
	}
	for from, to := range a.Extract {
		if from == "" || !plainName(to) {
			return fmt.Errorf("%s: extract: %q -> %q: the output must be a plain file name", where, from, to)
		}
	}
	if a.Requires != nil && a.Requires.Glibc != "" {
		if _, _, ok := parseVersion2(a.Requires.Glibc); !ok {
			return fmt.Errorf("%s: requires.glibc %q must look like 2.34", where, a.Requires.Glibc)
		}
	}
	return nil
}

// LlamaServer returns the pinned llama-server release for goos/goarch. A
// platform with no pin, or a pin without a digest, is an error naming the
// platform and endpoint mode.
func (p *Pins) LlamaServer(goos, goarch string) (*Artifact, error) {
	plat := goos + "/" + goarch
	a, ok := p.LlamaServers[plat]
	if !ok {
		return nil, fmt.Errorf("no llama-server pin for platform %q (pinned: %s): managed mode is unavailable here; use endpoint: mode with a llama-server you run, or add a pin with --pins/%s",
			plat, strings.Join(slices.Sorted(maps.Keys(p.LlamaServers)), ", "), EnvPins)
	}
	if !a.Pinned() {
		return nil, fmt.Errorf("llama-server (%s): download pin not configured (managed mode unavailable until pins are set); use endpoint: mode, or set sha256 in %s", plat, a.Source)
	}
	return a, nil
}

// Model returns the pinned weights of model id. An unknown id or an
// unpinned entry (no sha256) is an error pointing to endpoint mode.
func (p *Pins) Model(id string) (*Artifact, error) {
	if id == "" {
		id = p.DefaultModel()
	}
	a, ok := p.Models[id]
	if !ok {
		return nil, fmt.Errorf("no weights pin for model %q (pinned: %s); use endpoint: mode, or add a pin with --pins/%s",
			id, strings.Join(slices.Sorted(maps.Keys(p.Models)), ", "), EnvPins)
	}
	if !a.Pinned() {
		return nil, fmt.Errorf("%s weights: download pin not configured (managed mode unavailable until pins are set); use endpoint: mode, or set sha256 in %s", id, a.Source)
	}
	return a, nil
}

// Shim returns the C++ runtime shim pinned for goos/goarch, if any.
func (p *Pins) Shim(goos, goarch string) (*Artifact, bool) {
	a, ok := p.Shims[goos+"/"+goarch]
	return a, ok
}

// DefaultModel is the id of the model marked default (qwen2.5-1.5b-instruct
// in the embedded pins).
func (p *Pins) DefaultModel() string {
	for _, k := range slices.Sorted(maps.Keys(p.Models)) {
		if p.Models[k].Default {
			return k
		}
	}
	return "qwen2.5-1.5b-instruct"
}

// All lists every artifact: llama-server releases, models, shims, each sorted by key.
func (p *Pins) All() []*Artifact {
	var out []*Artifact
	for _, m := range []map[string]*Artifact{p.LlamaServers, p.Models, p.Shims} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, m[k])
		}
	}
	return out
}

// MirrorURL rewrites raw for a mirror: <mirror>/<original host><original
// path>, keeping the query. An empty mirror returns raw unchanged.
func MirrorURL(raw, mirror string) (string, error) {
	if mirror == "" {
		return raw, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", maskUserinfo(fmt.Errorf("artifact url %q: %w", shownURL(raw), err))
	}
	m, err := url.Parse(mirror)
	if err != nil || (m.Scheme != "http" && m.Scheme != "https") || m.Host == "" {
		return "", fmt.Errorf("mirror %q must be an http(s) base URL such as https://mirror.example.com/kitsoki (set by --mirror or %s)", shownURL(mirror), EnvMirror)
	}
	under := path.Join("/", m.Path, u.Host)
	joined := path.Join(under, u.Path)
	if u.Host == "" || strings.Contains(u.Host, "/") || path.Clean(u.Host) != u.Host || u.Host == "." || u.Host == ".." ||
		joined != under && !strings.HasPrefix(joined, under+"/") {
		return "", maskUserinfo(fmt.Errorf("artifact url %q climbs out of its host on the mirror (a host or a \"..\" segment that leaves <mirror>/<host>/); write the URL without dot segments", shownURL(raw)))
	}
	m.Path = joined
	m.RawPath = ""
	m.RawQuery = u.RawQuery
	return m.String(), nil
}
