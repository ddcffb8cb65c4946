package coverage

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
)

// Schema is the JSON Schema of the JSON profile (kitsoki schema coverage).
//
//go:embed profile.schema.json
var Schema []byte

// MaxJSON bounds a JSON profile read from a file.
const MaxJSON = 64 << 20

type jsonProfile struct {
	Version int        `json:"kitsoki_coverage"`
	Summary Summary    `json:"summary"`
	Files   []jsonFile `json:"files"`
}

type jsonFile struct {
	Path  string     `json:"path"`
	Items []jsonItem `json:"items"`
}

type jsonItem struct {
	Kind  string `json:"kind"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
	State string `json:"state"`
	Label string `json:"label"`
	Count int64  `json:"count"`
}

// WriteJSON writes p as a JSON profile, one item per line, so that
// profiles diff well. (Marshalling these values cannot fail.)
func WriteJSON(w io.Writer, p *Profile) error {
	head, _ := json.Marshal(p.Summarize())
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"kitsoki_coverage\": %d,\n  \"summary\": %s,\n  \"files\": [", Version, head)
	for i, f := range p.Files {
		if i > 0 {
			b.WriteString(",")
		}
		path, _ := json.Marshal(f.Path)
		fmt.Fprintf(&b, "\n    {\"path\": %s, \"items\": [", path)
		for j, it := range f.Items {
			line, _ := json.Marshal(jsonItem{Kind: it.Kind.String(), Line: it.Line, Col: it.Col, State: it.State, Label: it.Label, Count: it.Count})
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n      ")
			b.Write(line)
		}
		if len(f.Items) > 0 {
			b.WriteString("\n    ")
		}
		b.WriteString("]}")
	}
	if len(p.Files) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// IsJSONProfile reports whether data looks like a JSON profile (an object
// with a kitsoki_coverage key) rather than another JSON document.
func IsJSONProfile(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, ok := top["kitsoki_coverage"]
	return ok
}

// ParseJSON reads a JSON profile; name is the file named in errors. The
// summary is not trusted: it is recomputed from the items.
func ParseJSON(name string, data []byte) (*Profile, error) {
	bad := func(where, format string, a ...any) error {
		return fmt.Errorf("%s: %s: %s", name, where, fmt.Sprintf(format, a...))
	}
	// profiles come from other jobs and repositories: bound the decoding
	if limit, over := jsoncost.OverFor(data, reflect.TypeFor[jsonProfile](), 0); over {
		return nil, fmt.Errorf("%s: not a kitsoki JSON coverage profile: %d bytes that would take over %d MiB once read (many empty items or files); write one with kitsoki test --coverprofile FILE --cover-format json", name, len(data), limit>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var jp jsonProfile
	if err := dec.Decode(&jp); err != nil {
		return nil, fmt.Errorf("%s: not a kitsoki JSON coverage profile: %s (write one with kitsoki test --coverprofile FILE --cover-format json)", name, jsonvalue.Reason(data, err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: unexpected data after the profile's closing brace", name)
	}
	switch {
	case jp.Version == 0:
		return nil, fmt.Errorf("%s: not a kitsoki JSON coverage profile: no kitsoki_coverage version (write one with kitsoki test --coverprofile FILE --cover-format json)", name)
	case jp.Version != Version:
		return nil, bad("kitsoki_coverage", "version %d is not supported (this kitsoki reads version %d; use the kitsoki that wrote it)", jp.Version, Version)
	}
	files := map[string]map[itemKey]*Item{}
	for i, f := range jp.Files {
		at := fmt.Sprintf("files[%d]", i)
		if strings.TrimSpace(f.Path) == "" || strings.ContainsRune(f.Path, 0) {
			return nil, bad(at+".path", "a story file path is required")
		}
		if files[f.Path] != nil {
			return nil, bad(at+".path", "%q is listed twice; a file's items belong in one entry", f.Path)
		}
		m := map[itemKey]*Item{}
		files[f.Path] = m
		for j, ji := range f.Items {
			iat := fmt.Sprintf("%s.items[%d]", at, j)
			k, ok := engine.ParseReachKind(ji.Kind)
			switch {
			case !ok:
				return nil, bad(iat+".kind", "%q is not a kind (%s)", ji.Kind, kindList())
			case ji.Line < 1:
				return nil, bad(iat+".line", "%d: lines start at 1", ji.Line)
			case ji.Col < 0:
				return nil, bad(iat+".col", "%d: columns are 0 (unknown) or more", ji.Col)
			case ji.Count < 0:
				return nil, bad(iat+".count", "%d: a count is 0 or more", ji.Count)
			}
			key := itemKey{k, ji.Line, ji.Col}
			if m[key] != nil {
				return nil, bad(iat, "a second %s at %d:%d; each item is listed once", ji.Kind, ji.Line, ji.Col)
			}
			m[key] = &Item{Kind: k, Line: ji.Line, Col: ji.Col, State: ji.State, Label: ji.Label, Count: ji.Count}
		}
	}
	return build(files), nil
}

func kindList() string {
	var names []string
	for k := engine.ReachState; k <= engine.ReachEffect; k++ {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}

// SniffOther names the profile format of data when it is an LCOV or
// Cobertura profile rather than JSON ("" otherwise).
func SniffOther(data []byte) string {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(t, []byte("TN:")), bytes.HasPrefix(t, []byte("SF:")):
		return "LCOV"
	case bytes.HasPrefix(t, []byte("<?xml")), bytes.HasPrefix(t, []byte("<coverage")):
		return "Cobertura"
	}
	return ""
}
