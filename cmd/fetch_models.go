package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"kitsoki/pkg/fetch"
)

func newFetchModelsCmd() *cobra.Command {
	var (
		ff    fetchFlags
		all   bool
		list  bool
		prune bool
	)
	c := &cobra.Command{
		Use:     "fetch-models [MODEL...]",
		Short:   "Download and verify pinned model weights (GGUF) into the cache",
		Example: "  kitsoki fetch-models --list\n  kitsoki fetch-models qwen2.5-1.5b-instruct\n  kitsoki fetch-models qwen2.5-1.5b-instruct --verify --json",
		Long: `fetch-models pre-warms the cache with pinned GGUF weights: each MODEL (default:
the default model, qwen2.5-1.5b-instruct), or every pinned model with --all.
Each file is checked against the pinned sha256 and size before it is moved
into <cache>/models/<id>.gguf; interrupted downloads resume, large files are
fetched in parallel ranged parts. --list shows every pinned artifact, its size
and whether it is cached and verified, and counts the cache entries no pin
names any more (after a pin update); --prune removes those, leaving any that
another kitsoki process holds and every file outside kitsoki's cache layout. Unpinned models (no sha256) are refused:
use endpoint: mode for them.

` + fetchEnvHelp + `

On a terminal a status line shows the bar, speed and ETA (counting only the
bytes moved by this run) and a verifying line while a cached file is hashed;
elsewhere a plain line every few seconds. Ctrl-C keeps the partial download
and prints the command that resumes it.

Exit status: 0 ready, 1 download or verification failed, 2 usage or pins error
(a bad --mirror or KITSOKI_MIRROR included), 130 interrupted by Ctrl-C or 143 by
SIGTERM (the partial download is kept).`,
		RunE: func(c *cobra.Command, args []string) error {
			pins, f, err := ff.setup(c)
			if err != nil {
				return err
			}
			if list && prune {
				return usagef("give --list or --prune, not both")
			}
			if list || prune {
				if len(args) > 0 || all {
					return usagef("--list and --prune take no MODEL and no --all")
				}
				if prune {
					return prunePins(c.OutOrStdout(), c.ErrOrStderr(), ff.json, pins, f)
				}
				return listPins(c.OutOrStdout(), ff.json, pins, f)
			}
			var arts []*fetch.Artifact
			switch {
			case all && len(args) > 0:
				return usagef("give MODEL names or --all, not both")
			case all:
				for _, a := range pins.All() {
					if a.Kind == fetch.KindModel && a.Pinned() {
						arts = append(arts, a)
					}
				}
			default:
				if len(args) == 0 {
					args = []string{pins.DefaultModel()}
				}
				for _, id := range args {
					a, err := pins.Model(id)
					if err != nil {
						return usagef("%v", err)
					}
					arts = append(arts, a)
				}
			}
			ctx, cancel, interrupted := fetchContext(c)
			defer cancel()
			var results []fetchResult
			var lastErr error
			for _, a := range arts {
				res, err := f.Ensure(ctx, a, fetch.EnsureOptions{Force: ff.force, Verify: ff.verify})
				r := fetchResult{ID: a.ID, Kind: string(a.Kind), Path: res.Path, Size: res.Size, SHA256: res.SHA256, Downloaded: res.Downloaded, OK: err == nil}
				if err == nil {
					results = append(results, r)
					continue
				}
				msg := err.Error()
				if ff.force && f.Cached(a) {
					msg += " (the cached file is kept)"
				}
				r.Path, _ = f.Path(a)
				r.Size, r.SHA256, r.Error = a.Size, a.SHA256, msg
				results = append(results, r)
				lastErr = errors.New(msg)
				if i := interrupted(); i != nil {
					if ff.json {
						_ = printFetchResults(c.OutOrStdout(), true, results)
					}
					return interruptedExit(c, ff.display, args, i, lastErr)
				}
				ff.display.abort()
				fmt.Fprintf(c.ErrOrStderr(), "kitsoki: fetch model %q: %s\n", a.ID, lastErr)
			}
			if err := printFetchResults(c.OutOrStdout(), ff.json, results); err != nil {
				return err
			}
			if lastErr != nil {
				return silentExit(exitFinding)
			}
			return nil
		},
	}
	ff.register(c)
	c.Flags().BoolVar(&all, "all", false, "fetch every pinned model")
	c.Flags().BoolVar(&list, "list", false, "list every pinned artifact with its size and cache state")
	c.Flags().BoolVar(&prune, "prune", false, "remove cache entries no pin names (release directories, archives and weights of earlier pins, their partial downloads); --list counts them")
	return c
}

// unverifiedOnDisk is the --list state of a file kitsoki has not verified
// yet (one the existing engine downloaded into a shared cache).
const unverifiedOnDisk = "on disk, not verified yet (the next fetch or start checks it)"

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// listEntry is one row of --list.
type listEntry struct {
	Kind   string `json:"kind"`
	Key    string `json:"key"`
	ID     string `json:"id"`
	Size   int64  `json:"size,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	State  string `json:"state"` // verified, on disk (not verified yet), partial, not cached, unpinned
	Path   string `json:"path,omitempty"`
	Source string `json:"source"`
}

func listPins(w io.Writer, asJSON bool, pins *fetch.Pins, f *fetch.Fetcher) error {
	var rows []listEntry
	for _, a := range pins.All() {
		e := listEntry{Kind: string(a.Kind), Key: a.Key, ID: a.ID, Size: a.Size, SHA256: a.SHA256, Source: a.Source, State: "not cached"}
		switch {
		case !a.Pinned():
			e.State = "unpinned (endpoint mode only)"
		case a.Kind == fetch.KindLlamaServer:
			if dir, err := f.ReleaseDir(a); err == nil && f.ReleaseCached(a) {
				e.State, e.Path = "verified", dir
			} else if err == nil && isFile(filepath.Join(dir, "llama-server")) {
				// Extracted by the existing kitsoki engine: adopted on first use.
				e.State, e.Path = unverifiedOnDisk, dir
			}
		default:
			if p, err := f.Path(a); err == nil {
				if f.Cached(a) {
					e.State, e.Path = "verified", p
				} else if isFile(p) {
					// No record of ours (the existing engine's download): hashed on first use.
					e.State, e.Path = unverifiedOnDisk, p
				} else if n, ok := f.PartialBytes(a); ok {
					e.State = fmt.Sprintf("partial (%s on disk)", fetch.ByteCount(n))
				}
			}
		}
		rows = append(rows, e)
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tKEY\tSIZE\tSTATE")
	for _, r := range rows {
		size := fetch.HumanSize(r.Size)
		if r.Size <= 0 {
			size = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Kind, r.Key, size, r.State)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if orphans, err := f.Orphans(pins); err == nil && len(orphans) > 0 {
		var n int64
		for _, o := range orphans {
			n += o.Bytes
		}
		fmt.Fprintf(w, "\n%d cache entries no pin names (%s): kitsoki fetch-models --prune removes them\n", len(orphans), fetch.ByteCount(n))
	}
	return nil
}
