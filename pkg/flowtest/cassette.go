package flowtest

import (
	"sync"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/host"
)

// cassettes parses each cassette (and recording) a run's fixtures name
// once (per kind and path) and hands every fixture a fork: the parsed
// episodes shared, the replay state its own. It lives in the Runner; a parse error is kept
// and given to every fixture naming the file.
type cassettes struct {
	mu sync.Mutex
	m  map[cassetteKey]*parsedCassette
}

type cassetteKey struct{ kind, path string }

type parsedCassette struct {
	once sync.Once
	v    any
	err  error
}

// parsed returns the value parse made of (kind, path), parsing it on the
// first call.
func (cs *cassettes) parsed(kind, path string, parse func() (any, error)) (any, error) {
	cs.mu.Lock()
	if cs.m == nil {
		cs.m = map[cassetteKey]*parsedCassette{}
	}
	k := cassetteKey{kind, path}
	e, ok := cs.m[k]
	if !ok {
		e = &parsedCassette{}
		cs.m[k] = e
	}
	cs.mu.Unlock()
	e.once.Do(func() { e.v, e.err = parse() })
	return e.v, e.err
}

// agentCassette is a fork of the host_cassette at path for pkg/agent's
// cassette transport (agent episodes answer agent calls; no plugin
// starts).
func (cs *cassettes) agentCassette(path string) (*agent.Cassette, error) {
	v, err := cs.parsed("agent", path, func() (any, error) { return agent.LoadCassette(path) })
	if err != nil {
		return nil, err
	}
	return v.(*agent.Cassette).Fork(), nil
}

// hostCassette is a fork of the host_cassette at path, the engine's host
// replay.
func (cs *cassettes) hostCassette(path string) (*compose.HostCassette, error) {
	v, err := cs.parsed("host", path, func() (any, error) { return compose.LoadHostCassette(path) })
	if err != nil {
		return nil, err
	}
	return v.(*compose.HostCassette).Fork(), nil
}

// recording is the recording at path, parsed once per run and shared:
// fixtures only look entries up (Recording.Lookup) and copy their slots.
func (cs *cassettes) recording(path string) (*Recording, error) {
	v, err := cs.parsed("recording", path, func() (any, error) { return loadRecording(path) })
	if err != nil {
		return nil, err
	}
	return v.(*Recording), nil
}

// httpCassette is a fork of the starlark_http_cassette at path.
func (cs *cassettes) httpCassette(path string) (*host.HTTPCassette, error) {
	c, err := parsedFile(cs, "http", path, host.ParseHTTPCassette)
	if err != nil {
		return nil, err
	}
	return c.Fork(), nil
}

// inspectCassette is a fork of the starlark_inspect_cassette at path.
func (cs *cassettes) inspectCassette(path string) (*host.InspectCassette, error) {
	c, err := parsedFile(cs, "inspect", path, host.ParseInspectCassette)
	if err != nil {
		return nil, err
	}
	return c.Fork(), nil
}

// parsedFile is the file at path, read within the fixture size limit and
// parsed by parse, once per (kind, path).
func parsedFile[T any](cs *cassettes, kind, path string, parse func(string, []byte) (T, error)) (T, error) {
	v, err := cs.parsed(kind, path, func() (any, error) {
		data, err := readBounded(path)
		if err != nil {
			return nil, err
		}
		return parse(path, data)
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}
