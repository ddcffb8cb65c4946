package sidecar

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"kitsoki/internal/proc"
)

// Config says how to run one llama-server.
type Config struct {
	Bin   string // llama-server executable
	Model string // GGUF path, passed as -m
	// LibDir goes first on LD_LIBRARY_PATH (Linux); empty means the directory of Bin.
	LibDir string
	// Host defaults to 127.0.0.1.
	Host string
	// Port 0 picks a free loopback port (again on each restart).
	Port int
	// Parallel is --parallel (decode slots); 0 means 4.
	Parallel int
	// Embeddings adds --embeddings --pooling mean.
	Embeddings bool
	// ExtraArgs are appended after the standard flags.
	ExtraArgs []string
	// Env is added to the inherited environment.
	Env []string
	// StartupTimeout bounds spawn-to-healthy; 0 means 60s.
	StartupTimeout time.Duration
	// StopGrace is the wait between SIGTERM and SIGKILL; 0 means 5s.
	StopGrace time.Duration
	// HealthInterval is the /health polling period; 0 means 100ms.
	HealthInterval time.Duration
	// Logger receives start, crash and restart lines; nil means none.
	Logger *slog.Logger
	// StartupClock returns the channel that ends the wait for health after
	// d; nil means the real clock (time.After). Tests (here and in the
	// packages that start sidecars) replace it to end the wait exactly when
	// the server has answered a health check.
	StartupClock func(d time.Duration) <-chan time.Time
	// PickPort chooses the port when Port is 0; nil means a free loopback
	// port from the kernel. Tests replace it to hand the server a port
	// another program has taken since it was picked.
	PickPort func(host string) (int, error)
}

// pickAttempts is how many picked ports a spawn tries when each is taken
// by another program between the pick and the server's bind.
const pickAttempts = 3

// tailSize is how much of the server's output is kept for error messages.
const tailSize = 8 << 10

// Sidecar is one supervised llama-server.
type Sidecar struct {
	cfg    Config
	client *http.Client

	mu       sync.Mutex
	proc     *process
	stopped  bool
	restarts int
}

// process is one spawn of the server, at url.
type process struct {
	*proc.Process
	url string
}

// Start spawns the server and returns once GET /health answers 200. On any
// failure the process is stopped and the error carries the server's last
// output.
func Start(ctx context.Context, cfg Config) (*Sidecar, error) {
	if cfg.Bin == "" {
		return nil, errors.New("sidecar: no llama-server binary given (Config.Bin)")
	}
	if cfg.Model == "" {
		return nil, errors.New("sidecar: no model given (Config.Model)")
	}
	cfg.Host = cmp.Or(cfg.Host, "127.0.0.1")
	cfg.Parallel = cmp.Or(max(cfg.Parallel, 0), 4)
	cfg.StartupTimeout = cmp.Or(max(cfg.StartupTimeout, 0), 60*time.Second)
	cfg.StopGrace = cmp.Or(max(cfg.StopGrace, 0), 5*time.Second)
	cfg.HealthInterval = cmp.Or(max(cfg.HealthInterval, 0), 100*time.Millisecond)
	if cfg.StartupClock == nil {
		cfg.StartupClock = time.After
	}
	if cfg.PickPort == nil {
		cfg.PickPort = freePort
	}
	s := &Sidecar{
		cfg: cfg,
		// Loopback only: never through a proxy, no pooled connections to a
		// server that may be restarted.
		client: &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}},
	}
	if err := s.spawnLocked(ctx); err != nil { // nobody else holds s yet: no lock
		return nil, err
	}
	return s, nil
}

// serverArgs returns the llama-server argv (without the program name) for
// cfg (its defaults applied by Start) on port.
func serverArgs(cfg Config, port int) []string {
	// The existing engine's order: -m, --port, --parallel, --host, extras.
	args := []string{"-m", cfg.Model, "--port", strconv.Itoa(port), "--parallel", strconv.Itoa(cfg.Parallel), "--host", cfg.Host}
	if cfg.Embeddings {
		args = append(args, "--embeddings", "--pooling", "mean")
	}
	return append(args, cfg.ExtraArgs...)
}

// serverPolicy is how llama-server runs (internal/proc): kitsoki's
// environment plus cfg.Env, the library directory first on LD_LIBRARY_PATH.
func serverPolicy(cfg Config) proc.Policy {
	var vars []proc.Var
	for _, kv := range cfg.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars = append(vars, proc.Var{Key: k, Value: v})
		}
	}
	if runtime.GOOS == "linux" {
		vars = append(vars, proc.Var{Key: "LD_LIBRARY_PATH", Value: cmp.Or(cfg.LibDir, filepath.Dir(cfg.Bin)), Prepend: true})
	}
	return proc.Policy{
		Env:        proc.Env{Policy: proc.EnvInherit, Vars: vars},
		StderrTail: tailSize,
		TailStdout: true,
		TermGrace:  cfg.StopGrace,
		WaitDelay:  2 * time.Second,
	}
}

// portFree refuses a configured port another program holds: a server
// already answering there would pass the health gate in place of ours, and
// receive the story's prompts.
func portFree(host string, port int) error {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("port %d on %s is already in use (another llama-server, or another program): choose another port:, or drop port: to let kitsoki pick a free one", port, host)
		}
		return fmt.Errorf("port %d on %s cannot be used: %w (choose another port:, or drop port:)", port, host, err)
	}
	return ln.Close()
}

// freePort asks the kernel for a free loopback port. Another process may
// take it before the server binds; spawnLocked then picks again.
func freePort(host string) (int, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, fmt.Errorf("find a free port on %s: %w", host, err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func (s *Sidecar) logf(level slog.Level, msg string, args ...any) {
	if s.cfg.Logger != nil {
		s.cfg.Logger.Log(context.Background(), level, msg, args...)
	}
}

// spawnLocked starts one process and waits for it to be healthy. A
// configured port another program holds is refused; a picked port another
// program took before the server bound it is picked again, up to
// pickAttempts times.
func (s *Sidecar) spawnLocked(ctx context.Context) error {
	if s.cfg.Port != 0 {
		if err := portFree(s.cfg.Host, s.cfg.Port); err != nil {
			return err
		}
		_, err := s.spawnOn(ctx, s.cfg.Port)
		return err
	}
	var err error
	for attempt := 1; attempt <= pickAttempts; attempt++ {
		port, perr := s.cfg.PickPort(s.cfg.Host)
		if perr != nil {
			return perr
		}
		var lost bool
		if lost, err = s.spawnOn(ctx, port); !lost {
			return err
		}
		s.logf(slog.LevelWarn, "llama-server lost its port to another program; picking another", "port", port, "attempt", attempt)
	}
	return fmt.Errorf("%w (another program took each of the %d free ports picked before llama-server bound it: set port: to one this machine keeps free)", err, pickAttempts)
}

// spawnOn starts one process on port and waits for it to be healthy.
// lost reports a server that exited before it was healthy while another
// program holds the port: it could not bind it.
func (s *Sidecar) spawnOn(ctx context.Context, port int) (lost bool, err error) {
	cmd := exec.Command(s.cfg.Bin, serverArgs(s.cfg, port)...)
	// Own process group; on Linux, dies with kitsoki.
	pr, err := proc.Start(context.Background(), cmd, serverPolicy(s.cfg))
	if err != nil {
		return false, fmt.Errorf("spawn server %s: %w (check server_bin, or run kitsoki fetch-llama-server)", s.cfg.Bin, err)
	}
	p := &process{Process: pr, url: "http://" + net.JoinHostPort(s.cfg.Host, strconv.Itoa(port))}
	s.logf(slog.LevelInfo, "llama-server starting", "pid", pr.Pid(), "url", p.url, "model", s.cfg.Model)
	if err := s.waitHealthy(ctx, p); err != nil {
		s.stopProcess(p)
		if wo, ok := errors.AsType[withOutput](err); ok {
			// Stopped and reaped, the server's output is all in the tail.
			lost = wo.exited && portFree(s.cfg.Host, port) != nil
			return lost, fmt.Errorf("%w%s", wo.error, lastOutput(p))
		}
		return false, err
	}
	s.proc = p
	s.logf(slog.LevelInfo, "llama-server ready", "pid", pr.Pid(), "url", p.url)
	return false, nil
}

// withOutput is a startup failure whose message the server's last output
// completes, once the server is stopped; exited is a server that ended on
// its own before it was healthy.
type withOutput struct {
	error
	exited bool
}

func (s *Sidecar) waitHealthy(ctx context.Context, p *process) error {
	deadline := s.cfg.StartupClock(s.cfg.StartupTimeout)
	last := "no answer yet"
	// A probe of a port that accepts but never answers (another program's)
	// ends when the server exits, not at the probe's own timeout.
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-p.Done():
			cancel()
		case <-pctx.Done():
		}
	}()
	for {
		select {
		case <-p.Done():
			return withOutput{fmt.Errorf("llama-server exited before it became healthy (%v)", p.Wait()), true}
		default:
		}
		status, said, err := s.probe(pctx, p.url)
		if err == nil && status == http.StatusOK {
			// A server that lost the port to another program has exited;
			// the answer was then the other program's.
			if p.Exited() {
				return withOutput{fmt.Errorf("llama-server exited (%v) while %s answered /health: another program holds the port; choose another port:, or drop port: to let kitsoki pick a free one", p.Wait(), p.url), true}
			}
			return nil
		}
		if err != nil {
			last = err.Error()
		} else {
			last = "http " + strconv.Itoa(status) + said
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for llama-server at %s to become healthy: %w", p.url, ctx.Err())
		case <-deadline:
			return withOutput{fmt.Errorf("llama-server at %s not healthy after %s (last /health: %s); the model may be too large for this machine's memory or too slow to load from its disk: run llama-server yourself and attach with endpoint: instead",
				p.url, s.cfg.StartupTimeout, last), false}
		case <-p.Done(): // reported at the top of the loop
		case <-time.After(s.cfg.HealthInterval):
		}
	}
}

// probe asks GET /health once; said is what a not-ready answer gives as
// its reason (` "Loading model"`), for the timeout message.
func (s *Sidecar) probe(ctx context.Context, base string) (status int, said string, err error) {
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, base+"/health", nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, healthReason(body), nil
}

// healthReason reads llama-server's reason from a /health body: the
// current {"error":{"message":…}} or the older {"status":…} ("" if none).
func healthReason(body []byte) string {
	var h struct {
		Status string `json:"status"`
		Error  struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &h) != nil {
		return ""
	}
	r := cmp.Or(h.Error.Message, h.Status)
	if r == "" || len(r) > 200 {
		return ""
	}
	return " " + strconv.Quote(r)
}

func lastOutput(p *process) string {
	o := strings.TrimSpace(p.Tail().String())
	if o == "" {
		return "; the server printed nothing"
	}
	return "; last output:\n" + o
}

// stopProcess sends SIGTERM to the group, waits the grace period, then
// SIGKILLs the group, and returns once the server has been reaped.
func (s *Sidecar) stopProcess(p *process) {
	if p.Stop() == proc.Killed {
		s.logf(slog.LevelWarn, "llama-server ignored SIGTERM; killed it", "pid", p.Pid(), "grace", s.cfg.StopGrace)
	}
}

// URL is the base URL of the running server ("http://127.0.0.1:<port>").
// It changes when a restart picks a new port: read it after Ensure.
func (s *Sidecar) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil || s.stopped {
		return ""
	}
	return s.proc.url
}

// PID is the server's process id (0 when none is running).
func (s *Sidecar) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return 0
	}
	return s.proc.Pid()
}

// Restarts counts restarts after crashes.
func (s *Sidecar) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// Ensure returns nil when the server is running; when it has crashed it
// starts it again (health-gated) and logs the crash with its last output.
func (s *Sidecar) Ensure(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errors.New("llama-server sidecar already stopped")
	}
	if s.proc != nil && !s.proc.Exited() {
		return nil
	}
	if s.proc != nil {
		s.logf(slog.LevelWarn, "llama-server exited; restarting", "pid", s.proc.Pid(), "exit", fmt.Sprint(s.proc.Wait()), "output", s.proc.Tail().String())
		s.proc.Kill() // anything left in its process group
	}
	s.restarts++
	if err := s.spawnLocked(ctx); err != nil {
		return fmt.Errorf("restart after crash: %w", err)
	}
	return nil
}

// Stop ends the server (SIGTERM, then SIGKILL after the grace period) and
// waits for it. It is idempotent.
func (s *Sidecar) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	if s.proc == nil {
		return nil
	}
	s.stopProcess(s.proc)
	s.logf(slog.LevelInfo, "llama-server stopped", "pid", s.proc.Pid())
	return nil
}
