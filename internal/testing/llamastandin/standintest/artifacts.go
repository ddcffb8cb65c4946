package standintest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// Artifacts is a loopback artifact server for managed-mode tests: the
// stand-in packed as a llama.cpp release archive (releaseArchive) and a
// model file, both pinned with their real sha256 by an overlay file to set
// as KITSOKI_PINS. The model file is also pinned as nomic-embed-text-v1.5
// for embedding sidecars.
type Artifacts struct {
	URL   string
	Pins  string // overlay file: set KITSOKI_PINS to it
	Model string // pinned chat model id
	hits  atomic.Int64
}

// Hits counts the requests the artifact server has answered.
func (a *Artifacts) Hits() int64 { return a.hits.Load() }

// ServeArtifacts packs the stand-in binary bin and serves it with a model
// file until the test ends.
func ServeArtifacts(t testing.TB, bin string) *Artifacts {
	t.Helper()
	archive, archiveSum := releaseArchive(t, bin)
	model := []byte("GGUF stand-in weights for kitsoki tests")
	ms := sha256.Sum256(model)
	modelSum := hex.EncodeToString(ms[:])
	a := &Artifacts{Model: "standin-1b"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.hits.Add(1)
		switch r.URL.Path {
		case "/llama.tar.gz":
			http.ServeContent(w, r, "llama.tar.gz", time.Time{}, bytes.NewReader(archive))
		case "/model.gguf":
			http.ServeContent(w, r, "model.gguf", time.Time{}, bytes.NewReader(model))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	a.URL = srv.URL
	a.Pins = filepath.Join(t.TempDir(), "pins.yaml")
	overlay := fmt.Sprintf(`llama_server:
  %s/%s:
    id: llama-server-standin
    release: b9444
    url: %s/llama.tar.gz
    sha256: %s
    size: %d
    format: tar.gz
    members: [llama-server]
models:
  %s:
    id: %s
    url: %s/model.gguf
    sha256: %s
    size: %d
    format: gguf
  nomic-embed-text-v1.5:
    id: nomic-embed-text-v1.5
    url: %s/model.gguf
    sha256: %s
    format: gguf
`, runtime.GOOS, runtime.GOARCH, srv.URL, archiveSum, len(archive), a.Model, a.Model, srv.URL, modelSum, len(model), srv.URL, modelSum)
	if err := os.WriteFile(a.Pins, []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	return a
}
