package flowtest

import (
	"crypto/sha256"
	"sync"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/host"
)

// maxCachedCassettes bounds the bytes of cassettes a run keeps parsed; a
// cassette past it is parsed for each fixture, as before.
const maxCachedCassettes = 16 << 20

// cassetteCache parses each cassette, recording and inspect cassette a
// run's fixtures name once for the same bytes, and gives each fixture a
// fresh replay of it: many small fixtures naming one large cassette no
// longer parse it once each (TestCassetteParsedOnceForTheSameBytes). The
// bytes are read again for each fixture, so a cassette a handler (or a
// recording) rewrote between fixtures is parsed anew. Safe for concurrent
// use.
type cassetteCache struct {
	mu   sync.Mutex
	held int
	m    map[cassetteKey]*cachedCassette
}

type cassetteKey struct {
	layer, name string
	sum         [sha256.Size]byte
}

type cachedCassette struct {
	once sync.Once
	v    any
	err  error
}

// parsed is parse's result for data named name, parsed once per layer,
// name and bytes while the cache holds fewer than maxCachedCassettes.
func (cc *cassetteCache) parsed(layer, name string, data []byte, parse func() (any, error)) (any, error) {
	key := cassetteKey{layer: layer, name: name, sum: sha256.Sum256(data)}
	cc.mu.Lock()
	e := cc.m[key]
	if e == nil && cc.held+len(data) <= maxCachedCassettes {
		if cc.m == nil {
			cc.m = map[cassetteKey]*cachedCassette{}
		}
		e = &cachedCassette{}
		cc.m[key], cc.held = e, cc.held+len(data)
	}
	cc.mu.Unlock()
	if e == nil {
		return parse()
	}
	e.once.Do(func() { e.v, e.err = parse() })
	return e.v, e.err
}

// fresh is parse's result for data named name in layer, parsed once by
// the run (cassetteCache), handed out as fresh makes it: nothing played.
func fresh[T any](fr *fixtureRun, layer, name string, data []byte, parse func() (T, error), fresh func(T) T) (T, error) {
	v, err := fr.r.cassettes.parsed(layer, name, data, func() (any, error) { return parse() })
	if err != nil {
		var zero T
		return zero, err
	}
	return fresh(v.(T)), nil
}

// hostCassette is the host layer's cassette of data read from path.
func (fr *fixtureRun) hostCassette(path string, data []byte) (*compose.HostCassette, error) {
	return fresh(fr, "host", path, data, func() (*compose.HostCassette, error) {
		return compose.ParseFlowHostCassette(path, data, fr.patterns())
	}, (*compose.HostCassette).Fresh)
}

// httpCassette is the Starlark HTTP cassette of data read from path.
func (fr *fixtureRun) httpCassette(path string, data []byte) (*host.HTTPCassette, error) {
	return fresh(fr, "http", path, data, func() (*host.HTTPCassette, error) {
		return host.ParseHTTPCassette(path, data, fr.patterns())
	}, (*host.HTTPCassette).Fresh)
}

// inspectCassette is the Starlark inspect cassette of data read from path.
func (fr *fixtureRun) inspectCassette(path string, data []byte) (*host.InspectCassette, error) {
	return fresh(fr, "inspect", path, data, func() (*host.InspectCassette, error) {
		return host.ParseInspectCassette(path, data)
	}, (*host.InspectCassette).Fresh)
}

// parsedRecording is the recording of data read from path. A replay never
// changes a recording (Lookup only reads it, and a turn sends a copy of an
// entry's slots), so every fixture shares the one parse.
func (fr *fixtureRun) parsedRecording(path string, data []byte) (*Recording, error) {
	return fresh(fr, "recording", path, data, func() (*Recording, error) {
		return parseRecording(path, data)
	}, func(r *Recording) *Recording { return r })
}
