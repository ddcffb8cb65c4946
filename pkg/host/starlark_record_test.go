package host

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestHTTPCassetteRecord: in new_episodes mode a request the cassette
// lacks goes to a real (loopback) server and is recorded; Flush writes a
// cassette that then replays without the network.
func TestHTTPCassetteRecord(t *testing.T) {
	srv, hits := storytest.JSONServer(t, func(r *http.Request) string { return fmt.Sprintf(`{"path":%q}`, r.URL.Path) })
	dir := storytest.TempTree(t, map[string]string{
		"s.star":      "def main(ctx):\n    a = ctx.http.get(ctx.inputs[\"base\"] + \"/old\").json()[\"path\"]\n    b = ctx.http.get(ctx.inputs[\"base\"] + \"/new\").json()[\"path\"]\n    return {\"out\": a + b}\n",
		"s.star.yaml": "inputs:\n  base: { type: string }\noutputs:\n  out: { type: string }\n",
	})
	cpath := filepath.Join(dir, "c.http.yaml")
	storytest.WriteFile(t, cpath, fmt.Sprintf("kind: http_cassette\nexchanges:\n  - request: { method: GET, url: %q }\n    response: { status: 200, body: '{\"path\":\"/recorded-old\"}' }\n", srv.URL+"/old"))
	c := loadHTTP(t, cpath)
	if err := c.SetRecordMode("sometimes"); err == nil || !strings.Contains(err.Error(), "not one of none, once, new_episodes, all") {
		t.Errorf("bad mode: %v", err)
	}
	if err := c.SetRecordMode("1"); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"script": "s.star", "inputs": map[string]any{"base": srv.URL}}
	d := mustOK(t, NewStarlarkRun(StarlarkOptions{HTTPCassette: c}), starEnv(dir), args)
	if d["out"] != "/recorded-old/new" || hits.Load() != 1 {
		t.Fatalf("record: %v, %d server hits", d, hits.Load())
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(cpath)
	// the file had no record_mode, and gets none (upstream keeps the file's)
	if strings.Contains(string(b), "record_mode") || !strings.Contains(string(b), srv.URL+"/new") {
		t.Errorf("flushed:\n%s", b)
	}
	// the flushed file replays both, with no network
	d = mustOK(t, NewStarlarkRun(StarlarkOptions{HTTPCassette: loadHTTP(t, cpath), NoNetwork: true}), starEnv(dir), args)
	if d["out"] != "/recorded-old/new" || hits.Load() != 1 {
		t.Errorf("replay: %v, %d hits", d, hits.Load())
	}
	// NoNetwork wins over recording
	c2 := loadHTTP(t, cpath)
	_ = c2.SetRecordMode(recordAll)
	res, _ := call(t, NewStarlarkRun(StarlarkOptions{HTTPCassette: c2, NoNetwork: true}), starEnv(dir), args)
	if !strings.Contains(res.Error, "allows no network") {
		t.Errorf("no network: %q", res.Error)
	}
	// a replay-only cassette never flushes
	c3 := loadHTTP(t, cpath)
	if err := c3.Flush(); err != nil {
		t.Error(err)
	}
}

// A flushed exchange matched by a pattern stays a pattern: it is written
// under match:, since request: reads no url_pattern (upstream's rule) and
// would then match any url.
func TestHTTPCassetteFlushKeepsPatterns(t *testing.T) {
	dir := t.TempDir()
	cpath := filepath.Join(dir, "c.http.yaml")
	storytest.WriteFile(t, cpath, "kind: http_cassette\nexchanges:\n  - match: { method: GET, url_pattern: '/old$' }\n    response: { status: 200, body: old }\n  - request: { method: GET, url: 'https://x.test/a' }\n    response: { status: 200, body: a }\n")
	c := loadHTTP(t, cpath)
	c.dirty = true
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	re := loadHTTP(t, cpath)
	if _, err := re.Answer("GET", "https://x.test/zzz"); err == nil {
		b, _ := os.ReadFile(cpath)
		t.Errorf("the flushed pattern exchange answers any url:\n%s", b)
	}
	if ex, err := re.Answer("GET", "https://x.test/old"); err != nil || ex.Body != "old" {
		t.Errorf("the pattern no longer matches: %v %v", ex, err)
	}
}
