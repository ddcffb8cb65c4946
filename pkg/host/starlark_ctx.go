package host

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"kitsoki/internal/safefile"
)

// scriptCtx is what main(ctx) sees: ctx.inputs (a dict), ctx.world.get,
// ctx.http.get/post, ctx.fs.read/exists/glob (the working directory,
// then the story directory: starlark_fs.go) and ctx.probe. It records the
// HTTP exchanges and inspections the handler reports beside the outputs.
type scriptCtx struct {
	o        *StarlarkOptions
	ctx      context.Context
	storyDir string
	world    map[string]any
	// mem is the script's memory budget, charged for every value made of
	// what lies outside the script (a file read, a response, a world value)
	mem *memBudget

	exchanges   []any
	inspections []any
}

func (s *scriptCtx) value(inputs map[string]any) (starlark.Value, error) {
	// inputs and world values are fresh copies: a script may change them
	// without touching the run's world.
	in, err := toStarlark(inputs)
	if err != nil {
		return nil, err
	}
	b := starlark.NewBuiltin
	world := &starNS{"ctx.world", starlark.StringDict{
		"get": b("ctx.world.get", s.worldGet),
	}}
	httpv := &starNS{"ctx.http", starlark.StringDict{
		"get":  b("ctx.http.get", s.httpCall(http.MethodGet)),
		"post": b("ctx.http.post", s.httpCall(http.MethodPost)),
	}}
	fsv := &starNS{"ctx.fs", starlark.StringDict{
		"read":   b("ctx.fs.read", s.fsRead),
		"exists": b("ctx.fs.exists", s.fsExists),
		"glob":   b("ctx.fs.glob", s.fsGlob),
	}}
	// ctx itself is a plain struct, as upstream's (`struct has no .x attribute`)
	return starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{
		"inputs": in,
		"world":  world,
		"http":   httpv,
		"fs":     fsv,
		"probe":  b("ctx.probe", s.probe),
	}), nil
}

func (s *scriptCtx) worldGet(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key string
	var def starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "key", &key, "default?", &def); err != nil {
		return nil, err
	}
	v, ok := s.world[key]
	if !ok || v == nil {
		return def, nil
	}
	sv, err := toStarlark(v)
	if errors.Is(err, errUint64) {
		return nil, err
	} else if err != nil {
		return nil, fmt.Errorf("world.get(%q): %v", key, err)
	}
	if _, shared := sv.(starlark.String); !shared { // a string shares the world's bytes
		if err := s.mem.charge(memBound(sv)); err != nil {
			return nil, fmt.Errorf("world.get(%q): %v", key, err)
		}
	}
	return sv, nil
}

func (s *scriptCtx) httpCall(method string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		// upstream's parameters (conformance star-http)
		var (
			u       string
			headers *starlark.Dict
			body    starlark.Value = starlark.None
		)
		params := []any{"url", &u, "headers?", &headers}
		if method == http.MethodPost {
			params = []any{"url", &u, "body?", &body, "headers?", &headers}
		}
		if err := starlark.UnpackArgs(fn.Name(), args, kwargs, params...); err != nil {
			return nil, err
		}
		var payload string
		hdr := map[string]string{}
		if headers != nil {
			for _, it := range headers.Items() {
				k, _ := starlark.AsString(it[0])
				v, _ := starlark.AsString(it[1])
				hdr[k] = v
			}
		}
		switch b := body.(type) {
		case starlark.String:
			payload = string(b)
		case starlark.NoneType:
		default:
			gv, err := fromStarlark(body, s.mem)
			if err != nil {
				return nil, fmt.Errorf("%s: body: %v", fn.Name(), err)
			}
			payload = stringify(gv)
			if _, ok := hdr["Content-Type"]; !ok {
				hdr["Content-Type"] = "application/json"
			}
		}
		resp, err := s.do(method, u, hdr, payload)
		if err != nil {
			if s.o.HTTPCassette != nil && !s.o.HTTPCassette.recording() {
				return nil, err // upstream's miss text, unprefixed
			}
			return nil, fmt.Errorf("%s %s: %v", fn.Name(), u, err)
		}
		s.exchanges = append(s.exchanges, map[string]any{"method": method, "url": u, "status": resp.status})
		return resp, nil
	}
}

func (s *scriptCtx) do(method, u string, hdr map[string]string, body string) (*httpResponse, error) {
	c := s.o.HTTPCassette
	if c != nil {
		ex, err := c.Answer(method, u)
		if err == nil {
			return &httpResponse{status: ex.Status, body: ex.Body, headers: ex.Headers, mem: s.mem}, nil
		}
		if !c.recording() {
			return nil, err
		}
	}
	if s.o.NoNetwork {
		return nil, fmt.Errorf("this run allows no network and has no http cassette; give the flow a starlark_http_cassette")
	}
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") {
		return nil, fmt.Errorf("%q is not an http(s) URL", u)
	}
	req, err := http.NewRequestWithContext(s.ctx, method, u, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := cmp.Or(s.o.HTTPClient, defaultHTTP).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := safefile.ReadAtMost(resp.Body, maxHTTPBody)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("the answer is larger than %d bytes", maxHTTPBody)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %v", err)
	}
	if err := s.mem.charge(uint64(len(b))); err != nil {
		return nil, err
	}
	h := map[string]string{}
	for k := range resp.Header {
		h[k] = resp.Header.Get(k)
	}
	r := &httpResponse{status: resp.StatusCode, body: string(b), headers: h, mem: s.mem}
	if c != nil {
		c.add(method, u, r)
	}
	return r, nil
}

// httpResponse is what ctx.http.get/post return, as upstream's
// http.response: status, headers, text() and json() (numbers float),
// truthy for a 2xx status.
type httpResponse struct {
	status  int
	body    string
	headers map[string]string
	mem     *memBudget // the script's, charged for each json()
}

var _ starlark.HasAttrs = (*httpResponse)(nil)

func (r *httpResponse) String() string        { return fmt.Sprintf("<http response %d>", r.status) }
func (r *httpResponse) Type() string          { return "http.response" }
func (r *httpResponse) Freeze()               {}
func (r *httpResponse) Truth() starlark.Bool  { return r.status >= 200 && r.status < 300 }
func (r *httpResponse) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: http.response") }
func (r *httpResponse) AttrNames() []string {
	return []string{"headers", "json", "status", "text"}
}

func (r *httpResponse) Attr(name string) (starlark.Value, error) {
	switch name {
	case "status":
		return starlark.MakeInt(r.status), nil
	case "text":
		return starlark.NewBuiltin("http.response.text", func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs(fn.Name(), args, kwargs); err != nil {
				return nil, err
			}
			return starlark.String(r.body), nil
		}), nil
	case "headers":
		d := starlark.NewDict(len(r.headers))
		for _, k := range slices.Sorted(maps.Keys(r.headers)) {
			_ = d.SetKey(starlark.String(k), starlark.String(r.headers[k]))
		}
		return d, nil
	case "json":
		return starlark.NewBuiltin("http.response.json", func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs(fn.Name(), args, kwargs); err != nil {
				return nil, err
			}
			if err := r.mem.charge(decodeBound(r.body)); err != nil {
				return nil, fmt.Errorf("%s: %v", fn.Name(), err)
			}
			var v any
			if err := json.Unmarshal([]byte(r.body), &v); err != nil {
				return nil, fmt.Errorf("%s: %v", fn.Name(), err)
			}
			return toStarlark(v)
		}), nil
	}
	return nil, nil
}

func (s *scriptCtx) inspect(op, target, status string) {
	if s.o.Inspect != nil {
		s.o.Inspect.note(op, target, status)
		return
	}
	s.inspections = append(s.inspections, map[string]any{"op": op, "target": target, "status": status})
}

// fsArg unpacks the one argument (named param) of ctx.fs.<op> and, with
// an inspect cassette, plays the interaction that answers it (nil
// without a cassette).
func (s *scriptCtx) fsArg(op, param string, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (string, *Interaction, error) {
	var p string
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, param, &p); err != nil {
		return "", nil, err
	}
	if s.o.Inspect == nil {
		return p, nil, nil
	}
	it, err := s.o.Inspect.take(op, p)
	return p, it, err
}

func (s *scriptCtx) fsRead(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	p, it, err := s.fsArg("read", "path", fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	text := ""
	if it != nil {
		text = it.Out
	} else {
		if text, err = fsReadFile(s.storyDir, p, s.o.checked); err != nil {
			return nil, err
		}
		if err := s.mem.charge(uint64(len(text))); err != nil {
			return nil, fmt.Errorf("%s %q: %v", fn.Name(), p, err)
		}
	}
	s.inspect("read", p, "ok")
	return starlark.String(text), nil
}

func (s *scriptCtx) fsExists(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	p, it, err := s.fsArg("exists", "path", fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	var found bool
	if it != nil {
		// as upstream: "True", " true\n" and "TRUE" count, "1" and "yes" do not
		found = strings.EqualFold(strings.TrimSpace(it.Out), "true")
	} else if found, err = fsExistsFile(s.storyDir, p, s.o.checked); err != nil {
		return nil, err
	}
	st := "ok"
	if !found {
		st = "missing"
	}
	s.inspect("exists", p, st)
	return starlark.Bool(found), nil
}

func (s *scriptCtx) fsGlob(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	pat, it, err := s.fsArg("glob", "pattern", fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	var matches []string
	if it != nil {
		// the recorded paths, one a line, the text trimmed first
		if out := strings.TrimSpace(it.Out); out != "" {
			matches = strings.Split(out, "\n")
		}
	} else if matches, err = fsGlobFiles(s.storyDir, pat, s.o.checked); err != nil {
		return nil, err
	}
	list := make([]starlark.Value, len(matches))
	for i, m := range matches {
		list[i] = starlark.String(m)
	}
	l := starlark.NewList(list)
	if err := s.mem.charge(memBound(l)); err != nil {
		return nil, fmt.Errorf("%s %q: %v", fn.Name(), pat, err)
	}
	s.inspect("glob", pat, fmt.Sprintf("matched:%d", len(matches)))
	return l, nil
}

// probe answers ctx.probe(name, args=[]) with {exit, out}: from the
// inspect cassette by name (the arguments are not compared). kitsoki runs
// no probe program: without a cassette the call fails, naming the fix.
func (s *scriptCtx) probe(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var list *starlark.List
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "name", &name, "args?", &list); err != nil {
		return nil, err
	}
	if list != nil {
		for i := 0; i < list.Len(); i++ {
			if _, ok := list.Index(i).(starlark.String); !ok {
				return nil, fmt.Errorf("ctx.probe: arg %d is not a string (got %s)", i, list.Index(i).Type()) // upstream's text
			}
		}
	}
	if s.o.Inspect == nil {
		// upstream's text: it runs allow-listed probe programs, kitsoki none
		return nil, fmt.Errorf("starlark probe %q: not on the allow-list", name)
	}
	it, err := s.o.Inspect.take("probe", name)
	if err != nil {
		return nil, err
	}
	s.inspect("probe", name, fmt.Sprintf("exit:%d", it.Exit))
	d := starlark.NewDict(2)
	_ = d.SetKey(starlark.String("exit"), starlark.MakeInt(it.Exit))
	_ = d.SetKey(starlark.String("out"), starlark.String(it.Out))
	return d, nil
}
