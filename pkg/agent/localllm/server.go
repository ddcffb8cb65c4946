package localllm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"kitsoki/pkg/fetch"
	"kitsoki/pkg/sidecar"
)

// llmServer gives builtin.local_llm (and Embedder) the base URL of the
// llama-server to talk to. Endpoint mode returns the configured URL and owns
// nothing; managed mode fetches, spawns and supervises a sidecar.
type llmServer interface {
	// baseURL returns the server's base URL, starting (or restarting) a
	// managed sidecar when needed. It honours ctx.
	baseURL(ctx context.Context) (string, error)
	// managed reports whether kitsoki owns the server.
	managed() bool
	close() error
}

// endpointServer is endpoint mode: attach, never fetch, spawn or kill.
type endpointServer struct{ url string }

func (e endpointServer) baseURL(ctx context.Context) (string, error) { return e.url, nil }
func (e endpointServer) managed() bool                               { return false }
func (e endpointServer) close() error                                { return nil }

// serverTuning holds the sidecar timings; zero values take the sidecar
// package defaults. Tests shrink them.
type serverTuning struct {
	startup  time.Duration
	grace    time.Duration
	interval time.Duration
	parallel int
	// startupClock is sidecar.Config.StartupClock (nil = the real clock).
	startupClock func(time.Duration) <-chan time.Time
}

// managedServer is managed mode: on the first baseURL it resolves the
// model's pin, fetches and verifies the pinned llama-server release (unless
// server_bin: names one) and the GGUF weights, then spawns one sidecar that
// every later call shares. A crashed sidecar is restarted on the next call;
// close stops it.
type managedServer struct {
	owner      string // alias (or "local embed <model>") for messages
	model      string // model id in the pins
	serverBin  string // server_bin: as declared, "" = fetch the pinned release
	storyDir   string // root of a relative server_bin:
	port       int
	embeddings bool
	env        []string // the declaration's env:, added to the sidecar's environment
	tune       serverTuning
	log        *slog.Logger
	disclose   io.Writer // download disclosure lines; nil = none

	sem  chan struct{} // one starter at a time, waitable with a context
	life context.Context
	stop context.CancelFunc

	sc     *sidecar.Sidecar // guarded by sem
	closed bool             // guarded by sem

	progMu   sync.Mutex
	lastProg time.Time
}

func newManagedServer(owner, model, serverBin, storyDir string, port int, embeddings bool, tune serverTuning, log *slog.Logger, disclose io.Writer) *managedServer {
	life, stop := context.WithCancel(context.Background())
	return &managedServer{owner: owner, model: model, serverBin: serverBin, storyDir: storyDir, port: port, embeddings: embeddings,
		tune: tune, log: log, disclose: disclose, sem: make(chan struct{}, 1), life: life, stop: stop}
}

func (m *managedServer) managed() bool { return true }

// baseURL starts the sidecar on first use and restarts it after a crash.
func (m *managedServer) baseURL(ctx context.Context) (string, error) {
	// Close cancels life: a start in progress (a multi-GB download, a
	// health wait) ends at once instead of holding Close up.
	if m.life.Err() != nil {
		return "", errStopped(m.owner)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	unhook := context.AfterFunc(m.life, cancel)
	defer unhook()

	select {
	case m.sem <- struct{}{}:
	case <-ctx.Done():
		if m.life.Err() != nil { // name a close as the cause
			return "", fmt.Errorf("%s: the agent registry closed while the llama-server was starting: %w", m.owner, context.Canceled)
		}
		return "", ctx.Err()
	}
	defer func() { <-m.sem }()
	if m.closed {
		return "", errStopped(m.owner)
	}
	if m.sc != nil {
		if err := m.sc.Ensure(ctx); err != nil {
			return "", fmt.Errorf("%s: llama-server crashed and could not be restarted: %w", m.owner, m.wrapCtx(ctx, err))
		}
		return m.sc.URL(), nil
	}
	bin, libDir, weights, err := m.acquire(ctx)
	if err != nil {
		return "", m.wrapCtx(ctx, err)
	}
	sc, err := sidecar.Start(ctx, sidecar.Config{
		Bin: bin, Model: weights, LibDir: libDir, Port: m.port, Parallel: m.tune.parallel, Embeddings: m.embeddings, Env: m.env,
		StartupTimeout: m.tune.startup, StopGrace: m.tune.grace, HealthInterval: m.tune.interval, Logger: m.log,
		StartupClock: m.tune.startupClock,
	})
	if err != nil {
		return "", fmt.Errorf("%s: start llama-server: %w", m.owner, m.wrapCtx(ctx, err))
	}
	m.sc = sc
	return sc.URL(), nil
}

func errStopped(owner string) error {
	return fmt.Errorf("%s: the llama-server sidecar was already stopped (the agent registry is closed)", owner)
}

// recoverFrom is called when a request to failedURL could not connect: the
// sidecar has probably just crashed, and its exit may not be noticed yet.
// It waits (up to crashNoticeWait) for the sidecar to be restarted by
// baseURL and returns the new base URL. ok is false when the server still
// looks alive (the failure was something else).
func (m *managedServer) recoverFrom(ctx context.Context, failedURL string) (url string, ok bool, err error) {
	before := m.restarts()
	deadline := time.Now().Add(crashNoticeWait)
	for {
		url, err := m.baseURL(ctx)
		if err != nil {
			return "", false, err
		}
		if url != failedURL || m.restarts() != before {
			return url, true, nil
		}
		if time.Now().After(deadline) {
			return "", false, nil
		}
		select {
		case <-ctx.Done():
			return "", false, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// crashNoticeWait bounds how long recoverFrom waits for a crash to show.
const crashNoticeWait = 2 * time.Second

// restarts counts the running sidecar's restarts (0 when none).
func (m *managedServer) restarts() int { return m.ofRunning((*sidecar.Sidecar).Restarts) }

// ofRunning is f of the running sidecar, read under sem (0 when none).
func (m *managedServer) ofRunning(f func(*sidecar.Sidecar) int) int {
	m.sem <- struct{}{}
	defer func() { <-m.sem }()
	if m.sc == nil {
		return 0
	}
	return f(m.sc)
}

// wrapCtx keeps ctx errors recognisable (errors.Is) in a failure that a
// cancelled context caused.
func (m *managedServer) wrapCtx(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w (%w)", err, ctx.Err())
	}
	return err
}

// acquire returns the server binary, its library directory and the model
// weights, fetching what the cache lacks. The model pin is resolved first,
// so an unknown or unpinned model fails before any byte is downloaded.
func (m *managedServer) acquire(ctx context.Context) (bin, libDir, weights string, err error) {
	pins, err := fetch.LoadPins("") // embedded pins + $KITSOKI_PINS
	if err != nil {
		return "", "", "", fmt.Errorf("%s: load pins: %w", m.owner, err)
	}
	ma, err := pins.Model(m.model)
	if err != nil {
		return "", "", "", fmt.Errorf("%s: managed mode (model: %s): %w", m.owner, m.model, err)
	}
	if bin, err = resolveServerBin(m.serverBin, m.storyDir); err != nil {
		return "", "", "", fmt.Errorf("%s: %w", m.owner, err)
	}
	f := &fetch.Fetcher{Logger: m.log, Progress: m.progress} // cache dir and mirror from KITSOKI_CACHE_DIR / KITSOKI_MIRROR
	if bin == "" {
		inst, err := f.EnsureLlamaServer(ctx, pins, runtime.GOOS, runtime.GOARCH, fetch.EnsureOptions{})
		if err != nil {
			return "", "", "", fmt.Errorf("%s: ensure server binary: %w", m.owner, err)
		}
		bin, libDir = inst.Bin, inst.LibDir
	}
	res, err := f.Ensure(ctx, ma, fetch.EnsureOptions{})
	if err != nil {
		return "", "", "", fmt.Errorf("%s: ensure model %q: %w", m.owner, ma.ID, err) // err starts "<id> weights: "
	}
	return bin, libDir, res.Path, nil
}

// progress turns fetch reports into plain disclosure lines: the first
// fetch of an artifact is never silent.
func (m *managedServer) progress(p fetch.Progress) {
	if m.disclose == nil || p.Artifact == nil {
		return
	}
	m.progMu.Lock()
	defer m.progMu.Unlock()
	id := p.Artifact.ID
	switch p.Phase {
	case fetch.PhaseStart:
		fmt.Fprintf(m.disclose, "kitsoki: %s: downloading %s (%s) from %s\n", m.owner, id, fetch.HumanSize(p.Total), p.Host)
		m.lastProg = time.Now()
	case fetch.PhaseDownload:
		if time.Since(m.lastProg) < 10*time.Second {
			return
		}
		m.lastProg = time.Now()
		if p.Total > 0 {
			fmt.Fprintf(m.disclose, "kitsoki: %s: %s: %s of %s\n", m.owner, id, fetch.HumanSize(p.Done), fetch.HumanSize(p.Total))
		} else {
			fmt.Fprintf(m.disclose, "kitsoki: %s: %s: %s\n", m.owner, id, fetch.HumanSize(p.Done))
		}
	case fetch.PhaseDone:
		fmt.Fprintf(m.disclose, "kitsoki: %s: %s verified\n", m.owner, id)
	case fetch.PhaseWait:
		fmt.Fprintf(m.disclose, "kitsoki: %s: waiting for another kitsoki process fetching %s\n", m.owner, id)
	}
}

// close stops the sidecar (SIGTERM, then SIGKILL after the grace period)
// and refuses later starts. It is idempotent.
func (m *managedServer) close() error {
	m.stop()
	m.sem <- struct{}{}
	defer func() { <-m.sem }()
	m.closed = true
	if m.sc == nil {
		return nil
	}
	err := m.sc.Stop()
	m.sc = nil
	return err
}

// resolveServerBin finds server_bin: a path with a separator is relative
// to the story directory; a bare name is looked up on PATH.
func resolveServerBin(bin, storyDir string) (string, error) {
	bin = strings.TrimSpace(bin)
	if bin == "" {
		return "", nil
	}
	if !strings.ContainsRune(bin, '/') && !strings.ContainsRune(bin, filepath.Separator) {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "", fmt.Errorf("server_bin %q is not on PATH; give its path, or drop server_bin: to use the pinned llama-server", bin)
		}
		return p, nil
	}
	if !filepath.IsAbs(bin) && storyDir != "" {
		bin = filepath.Join(storyDir, bin)
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("server_bin %s: %v; fix the path, or drop server_bin: to use the pinned llama-server", bin, errors.Unwrap(err))
	}
	return bin, nil
}
