package plugin

import (
	"kitsoki/internal/recost"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
	"os"
	"path/filepath"
	"slices"
)

// Where a profile layer comes from (Layer.Source).
const (
	// LayerSearch: a .kitsoki/plugins.yaml found upward from the story (the
	// repository's own, or one an operator put in a parent directory).
	LayerSearch = "search"
	// LayerUser: the user's profile, kitsoki/plugins.yaml in the user's
	// configuration directory ($XDG_CONFIG_HOME, else ~/.config on Linux).
	LayerUser = "user"
	// LayerFlag: the profile named by --profile.
	LayerFlag = "flag"
)

// Layer is one profile file an assembly applied.
type Layer struct {
	Path   string `json:"path"`
	Source string `json:"source"`
}

// UserProfileName is the user's profile inside the configuration
// directory (os.UserConfigDir).
const UserProfileName = "kitsoki/plugins.yaml"

// UserProfile returns the user's profile path when the file exists, else
// "".
func UserProfile() string {
	p := userProfilePath()
	if fi, err := os.Stat(p); p == "" || err != nil || fi.IsDir() {
		return ""
	}
	return p
}

// userProfilePath is where the user's profile is, there or not ("" when
// the user has no configuration directory).
func userProfilePath() string {
	dir, err := os.UserConfigDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, filepath.FromSlash(UserProfileName))
}

// layers lists the profiles opts applies, in the order they are applied:
// the ones found upward from dir (farthest first), the user's, then
// --profile. A file met twice is applied once, at its last place.
func layers(opts Options, dir string) []Layer {
	found := FindProfiles(dir)
	var out []Layer
	for _, f := range slices.Backward(found) {
		out = append(out, Layer{Path: f, Source: LayerSearch})
	}
	if !opts.NoUserProfile {
		if u := UserProfile(); u != "" {
			out = append(out, Layer{Path: u, Source: LayerUser})
		}
	}
	if opts.ProfilePath != "" {
		out = append(out, Layer{Path: opts.ProfilePath, Source: LayerFlag})
	}
	// One place per file: the last (the operator's), so a file named by
	// --profile that is also found upward counts as --profile.
	keep := out[:0]
	for i, l := range out {
		if !slices.ContainsFunc(out[i+1:], func(later Layer) bool { return sameFile(l.Path, later.Path) }) {
			keep = append(keep, l)
		}
	}
	return keep
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// mergeProfiles is the profile the layers make together. Nothing a layer
// says can be undone by another, whatever their order: disable: lists and
// redact patterns and env names add up, and each budget limit is the
// tightest one set. So a repository's profile can add restrictions but
// never lift the operator's.
func mergeProfiles(ps []*Profile) *Profile {
	out := &Profile{}
	for _, p := range ps {
		out.Disable = append(out.Disable, p.Disable...)
		out.Configured = append(out.Configured, p.Configured...)
		out.Redact.Patterns = append(out.Redact.Patterns, p.Redact.Patterns...)
		out.Redact.Env = append(out.Redact.Env, p.Redact.Env...)
		out.Budget.MaxCostUSD = tighter(out.Budget.MaxCostUSD, p.Budget.MaxCostUSD)
		out.Budget.MaxTokens = tighter(out.Budget.MaxTokens, p.Budget.MaxTokens)
	}
	if len(ps) > 0 {
		out.Path = ps[len(ps)-1].Path
	}
	return out
}

// tighter is the smaller of two limits where 0 means none.
func tighter[T int64 | float64](a, b T) T {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	}
	return min(a, b)
}

// loadProfile reads every profile layer and merges them (a malformed or
// unreadable one fails the assembly, positioned in its own file), and
// sets the plugins directories: the plugins/ beside --profile (the
// operator's, first) and beside the nearest .kitsoki directory.
func (a *Assembly) loadProfile(opts Options) error {
	dir := opts.StoryDir
	if dir == "" {
		dir = "."
	}
	a.Layers = layers(opts, dir)
	a.repo = repoRoot(dir)
	ps := make([]*Profile, 0, len(a.Layers))
	for _, l := range a.Layers {
		var root *safefile.Root
		patterns := recost.NewBudget() // the operator's profile: a budget of its own
		if l.Source == LayerSearch {
			root = a.repo
			if opts.Story != nil { // the repository's: the story's budget
				patterns = opts.Story.Patterns()
			}
		}
		p, err := readProfileIn(root, l.Path, l.Source == LayerFlag, patterns)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	a.Profile = mergeProfiles(ps)
	if n := len(a.Layers); n > 0 {
		a.ProfilePath, a.ProfileFound = a.Layers[n-1].Path, true
	}
	a.PluginsDirs = pluginsDirs(dir, opts.ProfilePath)
	return nil
}

// pluginsDirs is where external manifests are looked for, each once: the
// plugins/ beside explicit (--profile: the operator's, first) and beside
// the nearest .kitsoki directory at or above dir.
func pluginsDirs(dir, explicit string) []string {
	var out []string
	if explicit != "" {
		out = append(out, filepath.Join(filepath.Dir(explicit), "plugins"))
	}
	if kd := kitsokiDir(dir); kd != "" {
		pd := filepath.Join(kd, "plugins")
		if !slices.ContainsFunc(out, func(d string) bool { return sameFile(d, pd) }) {
			out = append(out, pd)
		}
	}
	return out
}

// WatchFiles lists every file whose content or presence can change the
// assembly of a story in dir with --profile explicit ("" = none): a
// .kitsoki/plugins.yaml in dir and each parent (there or not; not the
// repository's when a link leads it out of the checkout), the user's
// profile, explicit, and the manifests now under the plugins
// directories (the ones Assemble would read). A watcher (kitsoki mcp
// serve) re-assembles when one of them changes.
func WatchFiles(dir, explicit string) []string {
	// listed as Assemble reads them: a repository's profile only when no
	// link leads it out of the checkout, the manifests as discovery lists
	// them (links not followed, the repository's directories through its
	// root); a glob listed, and the watcher read, what links there led to
	root := repoRoot(dir)
	defer root.Close()
	var out []string
	if abs, err := filepath.Abs(dir); err == nil {
		for d := range story.Ancestors(abs) {
			p := filepath.Join(d, ProfileDir, ProfileFile)
			if !inRoot(root, p) || root.Inside(p) {
				out = append(out, p)
			}
		}
	}
	if u := userProfilePath(); u != "" {
		out = append(out, u)
	}
	if explicit != "" {
		out = append(out, explicit)
	}
	for _, pd := range pluginsDirs(dir, explicit) {
		ms, _ := manifestPaths(root, pd)
		out = append(out, ms...)
	}
	return out
}
