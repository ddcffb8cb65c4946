package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"kitsoki/pkg/fetch"
)

// fetchFlags are shared by fetch-llama-server and fetch-models.
type fetchFlags struct {
	pins     string
	mirror   string
	cacheDir string
	parts    int
	stall    time.Duration
	force    bool
	verify   bool
	json     bool
}

func (f *fetchFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.pins, "pins", "", "overlay pin file (default $"+fetch.EnvPins+")")
	fl.StringVar(&f.mirror, "mirror", "", "mirror base URL: downloads come from <mirror>/<host><path> (default $"+fetch.EnvMirror+")")
	fl.StringVar(&f.cacheDir, "cache-dir", "", "cache root (default $"+fetch.EnvCacheDir+", else the user cache dir + kitsoki)")
	fl.IntVar(&f.parts, "parts", 4, "parallel ranged requests for large files (1 = one stream)")
	fl.DurationVar(&f.stall, "stall-timeout", 30*time.Second, "give up on a request that receives no byte for this long (the next fetch resumes)")
	fl.BoolVar(&f.force, "force", false, "download again even when cached")
	fl.BoolVar(&f.verify, "verify", false, "re-hash cached files instead of trusting their verification record")
	fl.BoolVar(&f.json, "json", false, "print the result as JSON on stdout")
}

// setup loads the pins and builds a Fetcher whose progress goes to stderr.
func (f *fetchFlags) setup(c *cobra.Command) (*fetch.Pins, *fetch.Fetcher, error) {
	if f.parts < 1 {
		return nil, nil, usagef("--parts must be at least 1")
	}
	if f.stall <= 0 {
		return nil, nil, usagef("--stall-timeout must be positive (e.g. 30s)")
	}
	pins, err := fetch.LoadPins(f.pins)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	if f.mirror != "" {
		if _, err := fetch.MirrorURL("https://example.com/x", f.mirror); err != nil {
			return nil, nil, usagef("--mirror: %v", err)
		}
	}
	client, err := fetch.DefaultHTTPClient()
	if err != nil {
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
	fr := &fetch.Fetcher{CacheDir: cacheDir, Mirror: f.mirror, HTTPClient: client, Parts: f.parts, StallTimeout: f.stall}
	fr.Progress = newFetchDisplay(c.ErrOrStderr()).report
	return pins, fr, nil
}

// fetchContext is cancelled by SIGINT/SIGTERM so an interrupted download
// keeps its resumable part.
func fetchContext(c *cobra.Command) (context.Context, context.CancelFunc) {
	ctx := c.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

func fetchIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// fetchDisplay shows progress: a bar per artifact on a terminal, a plain
// line every few seconds elsewhere.
type fetchDisplay struct {
	w     io.Writer
	tty   bool
	every time.Duration

	mu    sync.Mutex
	bars  map[string]*progressbar.ProgressBar
	last  map[string]time.Time
	start map[string]time.Time
}

func newFetchDisplay(w io.Writer) *fetchDisplay {
	return &fetchDisplay{w: w, tty: fetchIsTerminal(w), every: 5 * time.Second,
		bars: map[string]*progressbar.ProgressBar{}, last: map[string]time.Time{}, start: map[string]time.Time{}}
}

func (d *fetchDisplay) report(p fetch.Progress) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := p.Artifact.ID
	switch p.Phase {
	case fetch.PhaseWait:
		fmt.Fprintf(d.w, "waiting for another kitsoki process fetching %s\n", id)
	case fetch.PhaseStart:
		fmt.Fprintf(d.w, "downloading %s (%s) from %s\n", id, fetch.HumanSize(p.Total), p.Host)
		d.start[id], d.last[id] = time.Now(), time.Now()
		if d.tty {
			max := p.Total
			if max <= 0 {
				max = -1
			}
			d.bars[id] = progressbar.NewOptions64(max,
				progressbar.OptionSetWriter(d.w),
				progressbar.OptionSetDescription(id),
				progressbar.OptionShowBytes(true),
				progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish(),
			)
		}
	case fetch.PhaseDownload:
		if bar := d.bars[id]; bar != nil {
			_ = bar.Set64(p.Done)
			return
		}
		if time.Since(d.last[id]) < d.every {
			return
		}
		d.last[id] = time.Now()
		fmt.Fprintf(d.w, "%s: %s\n", id, progressLine(p, time.Since(d.start[id])))
	case fetch.PhaseDone:
		if bar := d.bars[id]; bar != nil {
			_ = bar.Finish()
			delete(d.bars, id)
		}
		line := fmt.Sprintf("%s: downloaded %s in %s", id, fetch.HumanSize(p.Done), time.Since(d.start[id]).Round(100*time.Millisecond))
		if p.Resumed > 0 {
			line += fmt.Sprintf(" (resumed after %s already on disk)", fetch.HumanSize(p.Resumed))
		}
		fmt.Fprintln(d.w, line)
	}
}

func progressLine(p fetch.Progress, elapsed time.Duration) string {
	var b strings.Builder
	b.WriteString(fetch.HumanSize(p.Done))
	if p.Total > 0 {
		fmt.Fprintf(&b, " / %s (%d%%)", fetch.HumanSize(p.Total), p.Done*100/p.Total)
	}
	if s := elapsed.Seconds(); s > 0 && p.Done > p.Resumed {
		fmt.Fprintf(&b, " %s/s", fetch.HumanSize(int64(float64(p.Done-p.Resumed)/s)))
	}
	return b.String()
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
}

func printFetchResults(w io.Writer, asJSON bool, rs []fetchResult) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rs)
	}
	for _, r := range rs {
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
	}
	return nil
}
