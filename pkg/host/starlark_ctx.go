package host

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"kitsoki/internal/safefile"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// scriptCtx is what main(ctx) sees: ctx.inputs (a dict), ctx.world.get,
// ctx.http.get/post, ctx.fs.read/exists/glob (confined to the story
// directory) and ctx.probe. It records the HTTP exchanges and inspections
// the handler reports beside the outputs.
type scriptCtx struct {
	o        *StarlarkOptions
	ctx      context.Context
	storyDir string
	world    map[string]any

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
	world := starlarkstruct.FromStringDict(starlark.String("world"), starlark.StringDict{
		"get": b("world.get", s.worldGet),
	})
	httpv := starlarkstruct.FromStringDict(starlark.String("http"), starlark.StringDict{
		"get":  b("http.get", s.httpCall(http.MethodGet)),
		"post": b("http.post", s.httpCall(http.MethodPost)),
	})
	fsv := starlarkstruct.FromStringDict(starlark.String("fs"), starlark.StringDict{
		"read":   b("fs.read", s.fsRead),
		"exists": b("fs.exists", s.fsExists),
		"glob":   b("fs.glob", s.fsGlob),
	})
	return starlarkstruct.FromStringDict(starlark.String("ctx"), starlark.StringDict{
		"inputs": in,
		"world":  world,
		"http":   httpv,
		"fs":     fsv,
		"probe":  b("probe", s.probe),
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
	if err != nil {
		return nil, fmt.Errorf("world.get(%q): %v", key, err)
	}
	return sv, nil
}

func (s *scriptCtx) httpCall(method string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var (
			rawURL  string
			headers *starlark.Dict
			params  *starlark.Dict
			body    starlark.Value = starlark.None
			jsonArg starlark.Value = starlark.None
		)
		if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "url", &rawURL, "headers?", &headers, "params?", &params, "body?", &body, "json?", &jsonArg); err != nil {
			return nil, err
		}
		u := rawURL
		if params != nil && params.Len() > 0 {
			q := url.Values{}
			for _, it := range params.Items() {
				k, _ := starlark.AsString(it[0])
				v, ok := starlark.AsString(it[1])
				if !ok {
					v = it[1].String()
				}
				q.Add(k, v)
			}
			sep := "?"
			if strings.Contains(u, "?") {
				sep = "&"
			}
			u += sep + q.Encode()
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
		if jsonArg != starlark.None {
			gv, err := fromStarlark(jsonArg, 0)
			if err != nil {
				return nil, fmt.Errorf("%s: json=: %v", fn.Name(), err)
			}
			payload = stringify(gv)
			if _, ok := hdr["Content-Type"]; !ok {
				hdr["Content-Type"] = "application/json"
			}
		} else if str, ok := starlark.AsString(body); ok {
			payload = str
		}
		resp, err := s.do(method, u, hdr, payload)
		if err != nil {
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
			return &httpResponse{status: ex.Status, body: ex.Body, headers: ex.Headers}, nil
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
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody+1))
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %v", err)
	}
	if len(b) > maxHTTPBody {
		return nil, fmt.Errorf("the answer is larger than %d bytes", maxHTTPBody)
	}
	h := map[string]string{}
	for k := range resp.Header {
		h[k] = resp.Header.Get(k)
	}
	r := &httpResponse{status: resp.StatusCode, body: string(b), headers: h}
	if c != nil {
		c.add(method, u, r)
	}
	return r, nil
}

// httpResponse is what ctx.http.get/post return: status, body (text),
// headers, ok, json(); it is truthy for a 2xx status.
type httpResponse struct {
	status  int
	body    string
	headers map[string]string
}

var _ starlark.HasAttrs = (*httpResponse)(nil)

func (r *httpResponse) String() string        { return fmt.Sprintf("<http response %d>", r.status) }
func (r *httpResponse) Type() string          { return "http_response" }
func (r *httpResponse) Freeze()               {}
func (r *httpResponse) Truth() starlark.Bool  { return r.status >= 200 && r.status < 300 }
func (r *httpResponse) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: http_response") }
func (r *httpResponse) AttrNames() []string {
	return []string{"body", "headers", "json", "ok", "status", "status_code", "text"}
}

func (r *httpResponse) Attr(name string) (starlark.Value, error) {
	switch name {
	case "status", "status_code":
		return starlark.MakeInt(r.status), nil
	case "body", "text":
		return starlark.String(r.body), nil
	case "ok":
		return r.Truth(), nil
	case "headers":
		d := starlark.NewDict(len(r.headers))
		for _, k := range slices.Sorted(maps.Keys(r.headers)) {
			_ = d.SetKey(starlark.String(k), starlark.String(r.headers[k]))
		}
		return d, nil
	case "json":
		return starlark.NewBuiltin("json", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			v, err := decodeJSON([]byte(r.body))
			if err != nil {
				return nil, fmt.Errorf("response body is not JSON: %v", err)
			}
			return toStarlark(v)
		}), nil
	}
	return nil, nil
}

// fsPath confines a script path to the story directory.
func (s *scriptCtx) fsPath(fn, p string) (string, error) {
	abs, err := confine("ctx."+fn, "path", s.storyDir, p)
	if err != nil {
		return "", fmt.Errorf("%s: %q is outside the story directory; ctx.fs reads only inside it", fn, p)
	}
	return abs, nil
}

func (s *scriptCtx) inspect(op, target, status string) {
	s.inspections = append(s.inspections, map[string]any{"op": op, "target": target, "status": status})
}

func (s *scriptCtx) fsRead(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var p string
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "path", &p); err != nil {
		return nil, err
	}
	if s.o.Inspect != nil {
		it, err := s.o.Inspect.take("read", p)
		if err != nil {
			return nil, err
		}
		s.inspect("read", p, "ok")
		return starlark.String(it.Out), nil
	}
	abs, err := s.fsPath("fs.read", p)
	if err != nil {
		return nil, err
	}
	b, err := safefile.ReadFile(abs, maxFSRead)
	if err != nil {
		s.inspect("read", p, "missing")
		return nil, fmt.Errorf("fs.read(%q): %s", p, safefile.ErrText(err))
	}
	s.inspect("read", p, "ok")
	return starlark.String(b), nil
}

func (s *scriptCtx) fsExists(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var p string
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "path", &p); err != nil {
		return nil, err
	}
	var found bool
	if s.o.Inspect != nil {
		it, err := s.o.Inspect.take("exists", p)
		if err != nil {
			return nil, err
		}
		found = it.Out == "true"
	} else {
		abs, err := s.fsPath("fs.exists", p)
		if err != nil {
			return nil, err
		}
		_, serr := os.Stat(abs)
		found = serr == nil
	}
	st := "ok"
	if !found {
		st = "missing"
	}
	s.inspect("exists", p, st)
	return starlark.Bool(found), nil
}

func (s *scriptCtx) fsGlob(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pat string
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "pattern", &pat); err != nil {
		return nil, err
	}
	var matches []string
	if s.o.Inspect != nil {
		it, err := s.o.Inspect.take("glob", pat)
		if err != nil {
			return nil, err
		}
		// the recorded paths, one a line, the text trimmed first
		if out := strings.TrimSpace(it.Out); out != "" {
			matches = strings.Split(out, "\n")
		}
	} else {
		var err error
		if matches, err = glob(s.storyDir, pat, maxGlob); err != nil {
			return nil, fmt.Errorf("fs.glob(%q): %v", pat, err)
		}
	}
	s.inspect("glob", pat, fmt.Sprintf("matched:%d", len(matches)))
	list := make([]starlark.Value, len(matches))
	for i, m := range matches {
		list[i] = starlark.String(m)
	}
	return starlark.NewList(list), nil
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
				return nil, fmt.Errorf("probe(%q): args[%d] is a %s; probe arguments are strings", name, i, list.Index(i).Type())
			}
		}
	}
	if s.o.Inspect == nil {
		return nil, fmt.Errorf("probe(%q): no inspect cassette answers it; kitsoki runs no probe programs (record {op: probe, target: %s, exit, out} under interactions: in a fixture's starlark_inspect_cassette)", name, name)
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

// glob returns the files under root matching pattern (slash-separated,
// relative to root; "**" matches any number of directories), sorted and
// relative to root. A pattern reaching outside root is refused; at most
// max matches are returned, more is an error.
func glob(root, pattern string, max int) ([]string, error) {
	pattern = filepath.ToSlash(strings.TrimSpace(pattern))
	if pattern == "" {
		return nil, fmt.Errorf("the pattern is empty")
	}
	if path.IsAbs(pattern) || pattern == ".." || strings.HasPrefix(pattern, "../") || strings.Contains(pattern, "/../") {
		return nil, fmt.Errorf("pattern %q reaches outside %s; use a pattern relative to it", pattern, root)
	}
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return nil, fmt.Errorf("pattern %q is malformed: %v", pattern, err)
	}
	segs := strings.Split(path.Clean(pattern), "/")
	// Walk only below the pattern's literal prefix (docs/ for docs/**/*.md).
	start := root
	for _, sg := range segs[:len(segs)-1] {
		if strings.ContainsAny(sg, "*?[\\") {
			break
		}
		start = filepath.Join(start, sg)
	}
	if _, err := os.Stat(start); err != nil {
		return nil, nil
	}
	var out []string
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != start && strings.HasPrefix(d.Name(), ".") && !strings.HasPrefix(pattern, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if matchSegs(segs, strings.Split(rel, "/")) {
			if len(out) >= max {
				return fmt.Errorf("more than %d files match %q; narrow the pattern", max, pattern)
			}
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

func matchSegs(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if matchSegs(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], name[0])
	return ok && matchSegs(pat[1:], name[1:])
}
