package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"
)

// HTTP cassette record modes (a cassette's record_mode:, SetRecordMode).
const (
	recordNone        = "none"         // replay only (default)
	recordOnce        = "once"         // record only a cassette that does not exist yet: a read one replays as none
	recordNewEpisodes = "new_episodes" // replay, and record what the cassette lacks
	recordAll         = "all"          // ignore the recording, record everything afresh
)

// SetRecordMode switches the cassette to recording: a request it cannot
// answer (new_episodes) or every request (all) goes to the network and is
// added; Flush writes the file. "1" and "true" mean new_episodes, "",
// "0"/"false" none, and so does once: the cassette was read, so it exists.
func (c *HTTPCassette) SetRecordMode(mode string) error {
	switch strings.ToLower(strings.TrimSpace(mode)) {
	case "", "0", "false", recordNone, recordOnce:
		mode = recordNone
	case "1", "true", recordNewEpisodes:
		mode = recordNewEpisodes
	case recordAll:
	default:
		return fmt.Errorf("http cassette %s: record mode %q is not one of none, once, new_episodes, all", c.Path, mode)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.record = mode
	if mode == recordAll {
		c.Exchanges, c.played = nil, nil
	}
	return nil
}

// Recording reports whether the cassette records (new_episodes or all):
// a request it cannot answer goes to the network.
func (c *HTTPCassette) Recording() bool { return c != nil && c.recording() }

func (c *HTTPCassette) recording() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.record == recordNewEpisodes || c.record == recordAll
}

// add records one exchange.
func (c *HTTPCassette) add(method, url string, r *httpResponse) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := map[string]string{}
	if ct := r.headers["Content-Type"]; ct != "" {
		h["Content-Type"] = ct
	}
	c.Exchanges = append(c.Exchanges, HTTPExchange{Method: method, URL: url, Status: r.status, Headers: h, Body: r.body})
	c.played = append(c.played, true)
	c.log = append(c.log, map[string]any{"method": method, "url": url, "status": r.status})
	c.dirty = true
}

// Flush writes a recording cassette back to its file (atomically) when it
// gained exchanges, keeping the file's own record_mode (as upstream: a
// cassette recorded through KITSOKI_HTTP_CASSETTE_RECORD then replays);
// it does nothing in replay mode.
func (c *HTTPCassette) Flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return nil
	}
	type resp struct {
		Status  int               `yaml:"status"`
		Headers map[string]string `yaml:"headers,omitempty"`
		Body    string            `yaml:"body"`
	}
	type req struct {
		Method     string `yaml:"method,omitempty"`
		URL        string `yaml:"url,omitempty"`
		URLPattern string `yaml:"url_pattern,omitempty"`
	}
	// an exchange matched by a pattern goes under match:: upstream reads
	// no url_pattern under request:, where it would match any url
	type ex struct {
		Match   *req `yaml:"match,omitempty"`
		Request *req `yaml:"request,omitempty"`
		Resp    resp `yaml:"response"`
	}
	out := struct {
		Kind       string `yaml:"kind"`
		RecordMode string `yaml:"record_mode,omitempty"`
		Exchanges  []ex   `yaml:"exchanges"`
	}{Kind: "http_cassette", RecordMode: c.fileMode} // the file's own, as upstream (set or not by KITSOKI_HTTP_CASSETTE_RECORD)
	for _, e := range c.Exchanges {
		r := &req{Method: e.Method, URL: e.URL}
		x := ex{Request: r, Resp: resp{Status: e.Status, Headers: e.Headers, Body: e.Body}}
		if e.URLPattern != nil {
			r.URLPattern = e.URLPattern.String()
			x.Match, x.Request = r, nil
		}
		out.Exchanges = append(out.Exchanges, x)
	}
	b, err := yaml.Marshal(out)
	if err != nil {
		return fmt.Errorf("flush starlark http cassette %s: %v", c.Path, err)
	}
	// through an os.Root of the cassette's directory: what has its name
	// by now (a link to a device or pipe elsewhere, say) is replaced by
	// the new file, never written through
	dir := filepath.Dir(c.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("flush starlark http cassette: %v", err)
	}
	root, err := safefile.OpenDirRoot(dir)
	if err != nil {
		return fmt.Errorf("flush starlark http cassette: %v", err)
	}
	defer root.Close()
	if err := atomicfile.WriteIn(root, filepath.Base(c.Path), b, 0o644); err != nil {
		return fmt.Errorf("flush starlark http cassette %s: %v", c.Path, err)
	}
	c.dirty = false
	return nil
}
