package fetch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"kitsoki/internal/atomicfile"
)

// ServerInstall is a verified, extracted llama-server release.
type ServerInstall struct {
	Bin        string // <dir>/llama-server
	LibDir     string // the release directory: put it first on LD_LIBRARY_PATH
	Platform   string
	Shim       bool // the libstdc++ shim is installed in LibDir
	Downloaded bool // bytes were transferred by this call
}

// releaseManifest is written next to a release directory once it is
// complete: <bin>/llama-<sha12>.json.
type releaseManifest struct {
	ArchiveSHA256 string          `json:"archive_sha256"`
	Release       string          `json:"release"`
	Platform      string          `json:"platform"`
	Files         []extractedFile `json:"files"`
	Shim          *extractedFile  `json:"shim,omitempty"`
	ShimSHA256    string          `json:"shim_archive_sha256,omitempty"`
	// Adopted: the directory was extracted by the existing kitsoki engine
	// (adoptRelease); the digests are of the files as found.
	Adopted bool `json:"adopted,omitempty"`
}

// ReleaseDir returns the per-release directory of a llama-server pin.
func (f *Fetcher) ReleaseDir(a *Artifact) (string, error) {
	root, err := f.root()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "bin", "llama-"+sha12(a.SHA256)), nil
}

// EnsureLlamaServer makes the pinned llama-server release for goos/goarch
// present in its release directory: download and verify the archive,
// extract it flat, and on a Linux host whose libstdc++ is older than the
// release needs, install the pinned shim next to it. A host whose glibc is
// too old fails with a message pointing to endpoint mode. The probe only
// runs when goos/goarch is the running platform.
func (f *Fetcher) EnsureLlamaServer(ctx context.Context, p *Pins, goos, goarch string, opts EnsureOptions) (ServerInstall, error) {
	a, err := p.LlamaServer(goos, goarch)
	if err != nil {
		return ServerInstall{}, err
	}
	plat := goos + "/" + goarch
	decision, err := f.runtimeDecision(a, goos, goarch)
	if err != nil {
		return ServerInstall{}, err
	}
	dir, err := f.ReleaseDir(a)
	if err != nil {
		return ServerInstall{}, err
	}
	inst := ServerInstall{Bin: filepath.Join(dir, "llama-server"), LibDir: dir, Platform: plat}

	man, ok := readManifest(dir, a)
	if ok && !opts.Force && !opts.Verify && (!decision.NeedShim || man.Shim != nil) {
		inst.Shim = man.Shim != nil
		return inst, nil
	}
	lock, err := f.lockArtifact(ctx, a, dir)
	if err != nil {
		// A read-only cache the existing engine filled: use its release
		// directory as it is, recording nothing.
		if ctx.Err() == nil && !ok && !opts.Force && !opts.Verify {
			if man, aok := adoptRelease(dir, a, false); aok && (!decision.NeedShim || man.Shim != nil) {
				inst.Shim = man.Shim != nil
				return inst, nil
			}
		}
		return ServerInstall{}, err
	}
	defer lock.release()

	removeStaleStages(dir)
	man, ok = f.installedRelease(dir, a, opts)
	if !ok || opts.Force {
		res, err := f.Ensure(ctx, a, opts) // its errors start "llama-server (<platform>): "
		if err != nil {
			return ServerInstall{}, err
		}
		inst.Downloaded = res.Downloaded
		if man, err = f.extractRelease(a, res.Path, dir); err != nil {
			return ServerInstall{}, fmt.Errorf("llama-server (%s): %w", plat, err)
		}
	}
	if decision.NeedShim && (man.Shim == nil || opts.Force || opts.Verify) {
		shimArt, found := p.Shim(goos, goarch)
		if !found {
			return ServerInstall{}, fmt.Errorf("llama-server (%s) %s, and no libstdc++ shim is pinned for this platform: install a newer libstdc++ or use endpoint: mode", plat, decision.Reason)
		}
		downloaded, err := f.installShim(ctx, shimArt, dir, &man, opts)
		if err != nil {
			return ServerInstall{}, err
		}
		inst.Downloaded = inst.Downloaded || downloaded
	}
	inst.Shim = man.Shim != nil
	return inst, nil
}

// installedRelease is the release already in dir that may be used as it
// is, the lock held: its manifest, else one adopted from a directory the
// existing engine extracted; with Verify, only a recorded one whose files
// still match.
func (f *Fetcher) installedRelease(dir string, a *Artifact, opts EnsureOptions) (releaseManifest, bool) {
	man, ok := readManifest(dir, a)
	if !ok && !opts.Force && !opts.Verify {
		man, ok = adoptRelease(dir, a, true)
	}
	if !ok || !opts.Verify {
		return man, ok
	}
	if man.Adopted {
		return man, false // nothing but the archive carries the pin: fetch and extract it
	}
	total := releaseSize(man)
	f.report(Progress{Artifact: a, Phase: PhaseVerify, Total: total})
	err := verifyRelease(dir, man)
	f.report(Progress{Artifact: a, Phase: PhaseVerify, Done: total, Total: total})
	return man, err == nil
}

// runtimeDecision probes the host (Linux, and only when goos/goarch is the
// running platform) for what the release needs: a too old glibc is an
// error, a too old libstdc++ asks for the shim.
func (f *Fetcher) runtimeDecision(a *Artifact, goos, goarch string) (RuntimeDecision, error) {
	if runtime.GOOS != "linux" || goos != runtime.GOOS || goarch != runtime.GOARCH {
		return RuntimeDecision{}, nil
	}
	probe := defaultHostProbe()
	if f.Probe != nil {
		probe = *f.Probe
	}
	return probe.Probe().Decide(a)
}

// removeStaleStages removes the staging directories of killed processes
// beside the release directory dir: nobody else can be using them while
// the caller holds the lock.
func removeStaleStages(dir string) {
	parent, prefix := filepath.Dir(dir), ".stage-"+filepath.Base(dir)+"-"
	ents, _ := os.ReadDir(parent) // not a glob: the cache path may hold * or [
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) {
			_ = os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}

// installShim downloads the pinned libstdc++ shim, extracts its one
// member into the release directory and records it in the manifest man;
// it reports whether anything was downloaded.
func (f *Fetcher) installShim(ctx context.Context, shimArt *Artifact, dir string, man *releaseManifest, opts EnsureOptions) (bool, error) {
	res, err := f.Ensure(ctx, shimArt, opts)
	if err != nil {
		return false, err // it starts "libstdc++ shim: "
	}
	files, err := extractFile(res.Path, shimArt.Format, dir, shimArt.Extract)
	if err != nil {
		return res.Downloaded, fmt.Errorf("libstdc++ shim: %w", err)
	}
	if len(files) != 1 {
		return res.Downloaded, fmt.Errorf("libstdc++ shim %s: extract: must name exactly one member, got %d", shimArt.ID, len(files))
	}
	man.Shim, man.ShimSHA256 = &files[0], shimArt.SHA256
	return res.Downloaded, writeManifest(dir, *man)
}

// extractRelease unpacks the archive into a staging directory beside dir,
// checks the pinned members, and swaps it into place.
func (f *Fetcher) extractRelease(a *Artifact, archive, dir string) (releaseManifest, error) {
	stage, err := os.MkdirTemp(filepath.Dir(dir), ".stage-"+filepath.Base(dir)+"-")
	if err != nil {
		return releaseManifest{}, fmt.Errorf("create staging dir: %w", err)
	}
	defer os.RemoveAll(stage)
	if err := os.Chmod(stage, 0o755); err != nil {
		return releaseManifest{}, err
	}
	files, err := extractFile(archive, a.Format, stage, a.Extract)
	if err != nil {
		return releaseManifest{}, fmt.Errorf("extract llama-server archive: %w; its sha256 matched the pin in %s, so check that pin's format (%s) and url", err, a.Source, a.Format)
	}
	members := a.Members
	if len(members) == 0 {
		members = []string{"llama-server"}
	}
	for _, m := range members {
		st, err := os.Stat(filepath.Join(stage, m))
		if err != nil || !st.Mode().IsRegular() {
			return releaseManifest{}, fmt.Errorf("%s not found in archive %s (pin %s lists it in members)", m, shownURL(a.URL), a.Source)
		}
	}
	bin := filepath.Join(stage, "llama-server")
	if _, err := os.Stat(bin); err == nil {
		if err := os.Chmod(bin, 0o755); err != nil {
			return releaseManifest{}, fmt.Errorf("chmod %s: %w", bin, err)
		}
		for i := range files {
			if files[i].Name == "llama-server" {
				files[i].Mode = 0o755
			}
		}
	}
	_ = os.Remove(manifestPath(dir))
	if _, err := os.Stat(dir); err == nil {
		old := stage + ".old"
		if err := os.Rename(dir, old); err != nil {
			return releaseManifest{}, fmt.Errorf("replace %s: %w", dir, err)
		}
		defer os.RemoveAll(old)
	}
	if err := os.Rename(stage, dir); err != nil {
		return releaseManifest{}, fmt.Errorf("move %s into place: %w", dir, err)
	}
	man := releaseManifest{ArchiveSHA256: a.SHA256, Release: a.Release, Platform: a.Key, Files: files}
	return man, writeManifest(dir, man)
}

func manifestPath(dir string) string { return dir + ".json" }

func readManifest(dir string, a *Artifact) (releaseManifest, bool) {
	var m releaseManifest
	if !readJSON(manifestPath(dir), &m) || m.ArchiveSHA256 != a.SHA256 {
		return m, false
	}
	if st, err := os.Stat(filepath.Join(dir, "llama-server")); err != nil || !st.Mode().IsRegular() {
		return m, false
	}
	if m.Shim != nil {
		if _, err := os.Stat(filepath.Join(dir, m.Shim.Name)); err != nil {
			m.Shim = nil
		}
	}
	return m, true
}

func writeManifest(dir string, m releaseManifest) error {
	data, _ := json.MarshalIndent(m, "", "  ")
	if err := atomicfile.Write(manifestPath(dir), data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", manifestPath(dir), err)
	}
	return nil
}

// verifyRelease re-hashes every extracted file against the manifest.
func verifyRelease(dir string, m releaseManifest) error {
	files := m.Files
	if m.Shim != nil {
		files = append(append([]extractedFile{}, files...), *m.Shim)
	}
	for _, f := range files {
		p := filepath.Join(dir, f.Name)
		if f.Link != "" {
			got, err := os.Readlink(p)
			if err != nil || got != f.Link {
				return fmt.Errorf("%s: symlink changed", p)
			}
			continue
		}
		sum, n, err := hashFile(p)
		if err != nil || sum != f.SHA256 || n != f.Size {
			return fmt.Errorf("%s: content changed since extraction", p)
		}
	}
	return nil
}

// releaseSize is the byte count verifyRelease hashes.
func releaseSize(m releaseManifest) int64 {
	var n int64
	for _, f := range m.Files {
		if f.Link == "" {
			n += f.Size
		}
	}
	if m.Shim != nil {
		n += m.Shim.Size
	}
	return n
}

// ReleaseCached reports whether the release for a is extracted and recorded.
func (f *Fetcher) ReleaseCached(a *Artifact) bool {
	dir, err := f.ReleaseDir(a)
	if err != nil {
		return false
	}
	_, ok := readManifest(dir, a)
	return ok
}
