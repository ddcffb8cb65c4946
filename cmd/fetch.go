package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/fetch"
)

// fetchEnvHelp is the environment paragraph of the fetch commands' help.
const fetchEnvHelp = `Environment: KITSOKI_CACHE_DIR, KITSOKI_PINS, KITSOKI_MIRROR, KITSOKI_OFFLINE,
HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE, SSL_CERT_DIR.`

// fetchFlags are shared by fetch-llama-server and fetch-models.
type fetchFlags struct {
	pins     string
	mirror   string
	cacheDir string
	parts    int
	rate     string
	stall    time.Duration
	force    bool
	verify   bool
	offline  bool
	json     bool
	progJSON bool

	display *fetchDisplay // set by setup
}

func (f *fetchFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.pins, "pins", "", "overlay pin file (default $"+fetch.EnvPins+")")
	fl.StringVar(&f.mirror, "mirror", "", "mirror base URL: downloads come from <mirror>/<host><path> (default $"+fetch.EnvMirror+")")
	fl.StringVar(&f.cacheDir, "cache-dir", "", "cache root (default $"+fetch.EnvCacheDir+", else the user cache dir + kitsoki)")
	fl.IntVar(&f.parts, "parts", 4, "parallel ranged requests for large files (1 = one stream)")
	fl.StringVar(&f.rate, "limit-rate", "", "cap each download, all its parts together, at this many bytes per second: 500K, 10M, 1G (1024-based), or plain bytes")
	fl.DurationVar(&f.stall, "stall-timeout", 30*time.Second, "give up on a request that receives no byte for this long (the next fetch resumes)")
	fl.BoolVar(&f.force, "force", false, "download again even when cached (the cached file stays until the new one has verified)")
	fl.BoolVar(&f.verify, "verify", false, "re-hash cached files instead of trusting their verification record")
	fl.BoolVar(&f.offline, "offline", false, "download nothing: use the cache (verified as usual) and fail at once, naming the file, for an artifact it lacks (default $"+fetch.EnvOffline+")")
	fl.BoolVar(&f.json, "json", false, "print a JSON array on stdout: one object per artifact, with ok and, on failure, error")
	fl.BoolVar(&f.progJSON, "progress-json", false, "report progress on stderr as one JSON object per line (id, kind, phase, host, done, total, resumed, parts) instead of a status line")
}

// setup loads the pins and builds a Fetcher whose progress goes to stderr.
func (f *fetchFlags) setup(c *cobra.Command) (*fetch.Pins, *fetch.Fetcher, error) {
	if f.parts < 1 {
		return nil, nil, usagef("--parts must be at least 1")
	}
	rate, err := parseRate(f.rate)
	if err != nil {
		return nil, nil, usagef("--limit-rate %q: %v", f.rate, err)
	}
	if f.stall <= 0 {
		return nil, nil, usagef("--stall-timeout must be positive (e.g. 30s)")
	}
	offline, err := fetch.OfflineMode(os.Getenv(fetch.EnvOffline))
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	if (f.offline || offline) && f.force {
		return nil, nil, usagef("--force downloads again, which offline mode (--offline or $%s) forbids: drop one of them", fetch.EnvOffline)
	}
	pins, err := fetch.LoadPins(f.pins)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	mirror, from := f.mirror, "--mirror"
	if mirror == "" {
		mirror, from = os.Getenv(fetch.EnvMirror), "$"+fetch.EnvMirror
	}
	if _, err := fetch.MirrorURL("https://example.com/x", mirror); err != nil {
		return nil, nil, usagef("%s: %v", from, err)
	}
	// The client (and the system certificate pool) is built only when a
	// byte must move; a bad SSL_CERT_FILE is still a usage error up front.
	if err := fetch.CheckTLSEnv(); err != nil {
		return nil, nil, usagef("%v", err)
	}
	cacheDir, err := fetch.ResolveCacheDir(f.cacheDir)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	if st, err := os.Stat(cacheDir); err == nil && !st.IsDir() {
		from := "--cache-dir"
		if f.cacheDir == "" {
			from = "$" + fetch.EnvCacheDir
		}
		return nil, nil, usagef("%s %s: is a file, not a directory; point it at a directory (it is created if missing)", from, cacheDir)
	}
	fr := &fetch.Fetcher{CacheDir: cacheDir, Mirror: f.mirror, HTTPClient: fetch.LazyHTTPClient(), Parts: f.parts, StallTimeout: f.stall, RateLimit: rate, Offline: f.offline}
	f.display = newFetchDisplay(c.ErrOrStderr())
	fr.Progress = f.display.report
	if f.progJSON {
		fr.Progress = jsonProgress(c.ErrOrStderr())
	}
	return pins, fr, nil
}

// fetchContext is cancelled by SIGINT/SIGTERM so an interrupted download
// keeps its resumable part. interrupted reports the signal that did it
// (nil: none).
func fetchContext(c *cobra.Command) (ctx context.Context, cancel context.CancelFunc, interrupted func() *interruption) {
	ctx, cancel = stopContext(c.Context())
	return ctx, cancel, func() *interruption { return interruptedBy(ctx) }
}

// interruptedExit erases the progress line and prints, on a line of its
// own, what was kept and how to resume; the status is 128 + the signal's
// number (130 after Ctrl-C, 143 after SIGTERM).
func interruptedExit(c *cobra.Command, d *fetchDisplay, args []string, i *interruption, err error) error {
	d.abort()
	w := c.ErrOrStderr()
	fmt.Fprintf(w, "kitsoki: %s: %v\n", i, err)
	fmt.Fprintf(w, "kitsoki: to resume, run: %s\n", resumeCommand(c, args))
	return silentExit(i.code())
}

// resumeCommand is the command line to run again: the command, its
// arguments and the flags that were set.
func resumeCommand(c *cobra.Command, args []string) string {
	parts := []string{c.CommandPath()}
	for _, a := range args {
		parts = append(parts, termsafe.ShellWord(a))
	}
	for _, name := range []string{"all", "platform", "pins", "mirror", "cache-dir", "parts", "limit-rate", "force", "verify", "offline", "json", "progress-json"} {
		fl := c.Flags().Lookup(name)
		switch {
		case fl == nil || !fl.Changed:
		case fl.Value.Type() == "bool" && fl.Value.String() == "true":
			parts = append(parts, "--"+name)
		default:
			parts = append(parts, "--"+name+"="+termsafe.ShellWord(fl.Value.String()))
		}
	}
	return strings.Join(parts, " ")
}

// fetchResult is one line of output (and one JSON object with --json).
type fetchResult struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	Platform   string `json:"platform,omitempty"`
	Path       string `json:"path"`
	Size       int64  `json:"size"`
	SHA256     string `json:"sha256"`
	Downloaded bool   `json:"downloaded"`
	LibDir     string `json:"lib_dir,omitempty"`
	Shim       bool   `json:"shim,omitempty"`
	// Version is what llama-server --version printed (this host's platform only).
	Version string `json:"version,omitempty"`
	// OK is false when the artifact is not ready; Error then says why
	// (path, size and sha256 are where and what the pin expects).
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

func printFetchResults(w io.Writer, asJSON bool, rs []fetchResult) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(nonNil(rs))
	}
	for _, r := range rs {
		if !r.OK {
			continue // the error is on stderr
		}
		state := "cached"
		if r.Downloaded {
			state = "downloaded"
		}
		fmt.Fprintf(w, "%s ready (%s)\n  path    %s\n  size    %d (%s)\n  sha256  %s\n", r.ID, state, r.Path, r.Size, fetch.HumanSize(r.Size), r.SHA256)
		if r.LibDir != "" {
			shim := ""
			if r.Shim {
				shim = " (with the libstdc++ shim)"
			}
			fmt.Fprintf(w, "  libdir  %s%s\n", r.LibDir, shim)
		}
		if r.Version != "" {
			fmt.Fprintf(w, "  runs    version %s\n", r.Version)
		}
	}
	return nil
}

// parseRate reads --limit-rate: bytes per second, with an optional K, M or
// G suffix (1024-based, as curl's --limit-rate); "" means no limit.
func parseRate(s string) (int64, error) {
	num := strings.TrimSpace(s)
	if num == "" {
		return 0, nil
	}
	mult := int64(1)
	if i := strings.Index("KMG", strings.ToUpper(num[len(num)-1:])); i >= 0 {
		mult, num = 1<<(10*(i+1)), num[:len(num)-1]
	}
	v, err := strconv.ParseFloat(num, 64)
	if bytes := v * float64(mult); err != nil || !(bytes >= 1024 && bytes <= 1<<40) { // NaN fails too
		return 0, errors.New("want a rate of at least 1K per second, such as 500K, 10M or 1G")
	}
	return int64(v * float64(mult)), nil
}
