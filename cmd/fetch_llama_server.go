package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"kitsoki/pkg/fetch"
	"kitsoki/pkg/sidecar"
)

func init() {
	register("fetch-models", newFetchModelsCmd)
	register("fetch-llama-server", newFetchLlamaServerCmd)
}

func newFetchLlamaServerCmd() *cobra.Command {
	var (
		ff       fetchFlags
		platform string
	)
	c := &cobra.Command{
		Use:     "fetch-llama-server",
		Short:   "Download, verify and unpack the pinned llama-server release into the cache",
		Example: "  kitsoki fetch-llama-server            # this platform's pinned llama-server\n  kitsoki fetch-llama-server --verify   # re-hash what is cached\n  KITSOKI_MIRROR=https://mirror.example/ kitsoki fetch-llama-server --json",
		Long: `fetch-llama-server pre-warms the cache with the llama.cpp llama-server release
pinned for this platform (or --platform os/arch): it downloads the archive,
checks its sha256 against the pin, unpacks it flat into
<cache>/bin/llama-<sha12>/ keeping SONAME symlinks, and on Linux hosts whose
libstdc++ is older than the release needs, installs the pinned libstdc++ shim
beside it. Interrupted downloads resume. Platforms without a pin fail: use
endpoint: mode there.

` + fetchEnvHelp + `

Exit status: 0 ready, 1 download or verification failed, 2 usage, pins,
mirror or platform error, 130 interrupted by Ctrl-C or 143 by SIGTERM (the partial download
is kept).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			goos, goarch := runtime.GOOS, runtime.GOARCH
			if platform != "" {
				var ok bool
				goos, goarch, ok = strings.Cut(platform, "/")
				if !ok || goos == "" || goarch == "" || strings.ContainsAny(goarch, "/\\ ") {
					return usagef("--platform %q: want os/arch, such as linux/amd64", platform)
				}
			}
			pins, f, err := ff.setup(c)
			if err != nil {
				return err
			}
			a, err := pins.LlamaServer(goos, goarch)
			if err != nil {
				return usagef("%v", err)
			}
			ctx, cancel, interrupted := fetchContext(c)
			defer cancel()
			// fail prints res under --json, then ends on err (130 or 143 when
			// interrupted) with msg.
			fail := func(res fetchResult, err error, msg string) error {
				if ff.json {
					_ = printFetchResults(c.OutOrStdout(), true, []fetchResult{res})
				}
				if i := interrupted(); i != nil {
					return interruptedExit(c, ff.display, nil, i, err)
				}
				ff.display.abort()
				return findingf("fetch llama-server: %s", msg)
			}
			inst, err := f.EnsureLlamaServer(ctx, pins, goos, goarch, fetch.EnsureOptions{Force: ff.force, Verify: ff.verify})
			if err != nil {
				res := fetchResult{ID: a.ID, Kind: string(a.Kind), Platform: goos + "/" + goarch, SHA256: a.SHA256, Size: a.Size, Error: err.Error()}
				if dir, derr := f.ReleaseDir(a); derr == nil {
					res.Path, res.LibDir = filepath.Join(dir, "llama-server"), dir
				}
				return fail(res, err, err.Error())
			}
			res := fetchResult{ID: a.ID, Kind: string(a.Kind), Platform: inst.Platform, Path: inst.Bin, SHA256: a.SHA256, Downloaded: inst.Downloaded, LibDir: inst.LibDir, Shim: inst.Shim, OK: true}
			if st, err := os.Stat(inst.Bin); err == nil {
				res.Size = st.Size()
			}
			if goos == runtime.GOOS && goarch == runtime.GOARCH {
				// Run it once, as a story would, so that a binary this host
				// cannot load fails here rather than at a story's first call.
				v, verr := sidecar.Version(ctx, inst.Bin, inst.LibDir)
				if verr != nil {
					res.OK, res.Error = false, fmt.Sprintf("%s was downloaded and verified, but does not run on this host: %v; use endpoint: mode with a llama-server built for this host", inst.Bin, verr)
					return fail(res, verr, res.Error)
				}
				res.Version = v
			}
			if !ff.json {
				fmt.Fprintf(c.OutOrStdout(), "llama-server %s (%s)\n", a.Release, inst.Platform)
			}
			return printFetchResults(c.OutOrStdout(), ff.json, []fetchResult{res})
		},
	}
	ff.register(c)
	c.Flags().StringVar(&platform, "platform", "", "fetch for os/arch instead of this host (the libstdc++ probe only runs for this host)")
	return c
}
