package fetch

import (
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"kitsoki/internal/safefile"
)

// setCacheDir is the advice of cache directory errors: the variable works
// for every command (a story's managed local_llm included), the flag only
// for the fetch commands.
const setCacheDir = "set " + EnvCacheDir + " (or --cache-dir of kitsoki fetch-llama-server/fetch-models)"

// Phase says which step a Progress report is about.
type Phase string

// Progress phases, in order.
const (
	PhaseStart    Phase = "start"    // a download begins (the disclosure)
	PhaseDownload Phase = "download" // periodic byte counts
	PhaseDone     Phase = "done"     // verified and in place
	PhaseWait     Phase = "wait"     // another process holds the artifact's lock
	PhaseVerify   Phase = "verify"   // hashing a cached file: Done of Total bytes hashed
	PhaseMismatch Phase = "mismatch" // the cached file failed its sha256 and is downloaded again
)

// Progress is one report about one artifact.
type Progress struct {
	Artifact *Artifact
	Phase    Phase
	Host     string // host the bytes come from (after the mirror rewrite)
	Done     int64  // bytes on disk so far, resumed bytes included
	Total    int64  // expected bytes; 0 when unknown
	Resumed  int64  // bytes reused from an earlier interrupted download
	Parts    int    // parallel ranged requests in use
}

// ProgressFunc receives progress reports. Calls for one artifact never overlap.
type ProgressFunc func(Progress)

// Fetcher downloads pinned artifacts into the cache. The zero value works:
// every empty field takes the default documented on it.
type Fetcher struct {
	// CacheDir is the cache root; empty means $KITSOKI_CACHE_DIR, else the
	// OS user cache dir + "kitsoki".
	CacheDir string
	// Mirror rewrites artifact URLs to <Mirror>/<host><path>; empty means $KITSOKI_MIRROR.
	Mirror string
	// HTTPClient defaults to defaultHTTPClient().
	HTTPClient *http.Client
	// Progress receives reports; nil means none.
	Progress ProgressFunc
	// Logger receives the download disclosure line; nil means none.
	Logger *slog.Logger
	// Parts is the number of parallel ranged requests for large files (default 4; 1 disables).
	Parts int
	// PartThreshold is the smallest size downloaded in parts (default 64 MiB).
	PartThreshold int64
	// Retries bounds consecutive failed attempts without progress (default 6).
	Retries int
	// Backoff is the first retry delay, doubled per retry up to 10s (default 500ms).
	Backoff time.Duration
	// StallTimeout aborts a request that received no byte (headers
	// included) for this long (default 30s). A stalled request is retried
	// once, resuming; a second stall in a row without a byte gives up,
	// keeping the part for the next fetch to resume.
	StallTimeout time.Duration
	// FreeSpace reports the bytes free for the cache at dir; nil means the
	// file system's count (statfs). A download that needs more is refused
	// before its first byte.
	FreeSpace func(dir string) (int64, error)
	// Offline forbids every download: an artifact the cache does not hold
	// verified fails at once, naming the file looked for and how to warm
	// the cache (a CI job restoring a cache, with no network). False means
	// $KITSOKI_OFFLINE ([OfflineMode]).
	Offline bool
	// RateLimit caps one download, all its parts together, at this many
	// bytes per second; 0 means no limit.
	RateLimit int64
	// now and sleep are the rate limiter's clock; nil means the real one.
	// Tests replace them to count the time a limited download must take.
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
	// ProgressInterval is the period of PhaseDownload reports (default 250ms).
	ProgressInterval time.Duration
	// Probe finds the host C/C++ runtimes on Linux; nil means defaultHostProbe().
	Probe *HostProbe
	// afterFunc starts a request's stall timer; nil means the real clock
	// (time.AfterFunc). Tests replace it to fire a stall exactly when their
	// server has gone silent.
	afterFunc func(d time.Duration, fire func()) stallTimer
}

// stallTimer is a request's stall timer: fired when no byte arrived for the
// stall timeout, Reset on every byte, stopped when the request ends. Reset
// and Stop report whether the timer was still armed (as [time.Timer]'s do).
type stallTimer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// EnsureOptions change how Ensure treats a cached file.
type EnsureOptions struct {
	Force  bool // download again even when cached
	Verify bool // re-hash a cached file instead of trusting its record
}

// Result describes a verified file in the cache.
type Result struct {
	Path       string
	Size       int64
	SHA256     string
	Downloaded bool  // bytes were transferred by this call
	Resumed    int64 // bytes reused from an interrupted download
}

// ResolveCacheDir returns dir, else $KITSOKI_CACHE_DIR, else the OS user
// cache dir + "kitsoki".
func ResolveCacheDir(dir string) (string, error) {
	if d := cmp.Or(dir, os.Getenv(EnvCacheDir)); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("resolve user cache dir: %w (%s to a writable directory)", err, setCacheDir)
	}
	return filepath.Join(base, "kitsoki"), nil
}

func (f *Fetcher) root() (string, error) { return ResolveCacheDir(f.CacheDir) }

func (f *Fetcher) mirror() string { return cmp.Or(f.Mirror, os.Getenv(EnvMirror)) }

// httpClient is HTTPClient, or defaultHTTPClient's: a bad SSL_CERT_FILE
// is the download's error, never a silent fall back to the default pool.
func (f *Fetcher) httpClient() (*http.Client, error) {
	if f.HTTPClient != nil {
		return f.HTTPClient, nil
	}
	return defaultHTTPClient()
}

// orDefault is v, or def when v is not positive (a zero field's default).
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

func (f *Fetcher) parts() int                  { return orDefault(f.Parts, 4) }
func (f *Fetcher) partThreshold() int64        { return orDefault(f.PartThreshold, 64<<20) }
func (f *Fetcher) retries() int                { return orDefault(f.Retries, 6) }
func (f *Fetcher) backoff() time.Duration      { return orDefault(f.Backoff, 500*time.Millisecond) }
func (f *Fetcher) stallTimeout() time.Duration { return orDefault(f.StallTimeout, 30*time.Second) }

// startStallTimer arms a stall timer that calls fire once the stall
// timeout passes without a Reset.
func (f *Fetcher) startStallTimer(fire func()) stallTimer {
	if f.afterFunc != nil {
		return f.afterFunc(f.stallTimeout(), fire)
	}
	return time.AfterFunc(f.stallTimeout(), fire)
}

func (f *Fetcher) progressInterval() time.Duration {
	return orDefault(f.ProgressInterval, 250*time.Millisecond)
}

func (f *Fetcher) report(p Progress) {
	if f.Progress != nil {
		f.Progress(p)
	}
}

// defaultHTTPClient is the client used for downloads: proxies from
// HTTPS_PROXY/HTTP_PROXY/NO_PROXY, and when SSL_CERT_FILE is set its
// certificates are trusted in addition to the system roots (on every OS,
// for TLS-intercepting corporate proxies).
func defaultHTTPClient() (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone() // proxies from the environment
	if file := os.Getenv("SSL_CERT_FILE"); file != "" {
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		pem, err := safefile.ReadFile(file, safefile.Data)
		if err != nil {
			return nil, fmt.Errorf("SSL_CERT_FILE %s: %w (fix the path or unset it)", file, err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("SSL_CERT_FILE %s: no PEM certificate found", file)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: tr}, nil
}

// sha12 is the short digest used in directory names.
func sha12(sum string) string { return sum[:min(12, len(sum))] }

// Path returns where a pinned artifact lives in the cache: models as
// models/<id>.gguf, archives as archives/<id>-<sha12>.<format>.
func (f *Fetcher) Path(a *Artifact) (string, error) {
	root, err := f.root()
	if err != nil {
		return "", err
	}
	if a.Kind == KindModel && !a.IsArchive() {
		return filepath.Join(root, "models", a.ID+".gguf"), nil
	}
	return filepath.Join(root, "archives", a.ID+"-"+sha12(a.SHA256)+"."+a.Format), nil
}

// hashFile returns the sha256 and size of the file at path.
func hashFile(path string) (string, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.CopyBuffer(h, fh, make([]byte, 1<<20))
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
