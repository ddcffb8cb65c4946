package fetch

import (
	"fmt"
	"os"
	"path/filepath"

	"kitsoki/internal/envflag"
)

// EnvOffline turns offline mode on for every command that fetches (the
// fetch commands and a story's managed local_llm): 1, true, yes or on.
const EnvOffline = "KITSOKI_OFFLINE"

// OfflineMode reads a KITSOKI_OFFLINE value: 1, true, yes or on turn it on;
// empty, 0, false, no or off leave it off; anything else is an error naming
// the variable and the values it takes.
func OfflineMode(v string) (bool, error) {
	if on, ok := envflag.Parse(v); ok {
		return on, nil
	}
	return false, fmt.Errorf("%s=%q: expected 1, true, yes or on (offline) or 0, false, no, off or empty (downloads allowed)", EnvOffline, v)
}

// offline reports whether downloads are forbidden: Offline, else
// $KITSOKI_OFFLINE.
func (f *Fetcher) offline() (bool, error) {
	if f.Offline {
		return true, nil
	}
	return OfflineMode(os.Getenv(EnvOffline))
}

// offlineRefusal is the error of an artifact offline mode cannot serve from
// the cache: it names the file looked for, what was wrong with it and how
// a job with no network gets it (warm the same cache directory where the
// network is reached, then restore it).
func (f *Fetcher) offlineRefusal(a *Artifact, dest, why string) error {
	root, _ := f.root()
	return fmt.Errorf("%s: %s %s, and offline mode (--offline or %s) downloads nothing: fetch it where the network is reached with %s=%s (kitsoki %s), then restore that directory here; or turn offline mode off to download it",
		a.label(), why, dest, EnvOffline, EnvCacheDir, filepath.Clean(root), a.fetchCommand())
}

// fetchCommand is the kitsoki command that puts a in the cache.
func (a *Artifact) fetchCommand() string {
	if a.Kind == KindModel {
		return "fetch-models " + a.ID
	}
	return "fetch-llama-server --platform " + a.Key
}
