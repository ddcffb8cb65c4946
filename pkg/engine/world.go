package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// WorldFile is a --world-file's overrides (LoadWorldFile) and the path
// given, which InitWorld's errors name.
type WorldFile struct {
	Path   string
	Values map[string]any
}

// World is the run's world: a plain map of YAML/JSON-shaped values.
type World map[string]any

// InitWorld returns the world built from the story's defaults, then the
// file overrides, then the key=value overrides (later wins). Override keys
// must be declared world variables (or reserved keys); values of
// --world k=v are parsed according to the declared type.
func InitWorld(vars []WorldVar, file *WorldFile, kv []string) (World, error) {
	w := World{}
	types := map[string]string{}
	for _, v := range vars {
		// a key with no default (or a null one) is not in the world until
		// something sets it, as upstream's: 'k' in world is false and
		// expect_world_full / expect_world_unchanged do not see it
		// (conformance world-null-default-absent)
		// a whole number default is upstream's YAML uint64 (conformance
		// yaml-uint-type)
		if d := jsonvalue.YAMLInts(jsonvalue.Normalize(v.Default)); d != nil {
			w[v.Name] = d
		}
		types[v.Name] = v.Type
	}
	check := func(k, from string) error {
		if _, ok := types[k]; ok || story.IsReservedWorld(k) {
			return nil
		}
		return fmt.Errorf("%s: world key %q is not declared in the story's world: (declared: %s)", from, k, declaredList(types))
	}
	var fileValues map[string]any
	if file != nil {
		fileValues = file.Values
	}
	for _, k := range slices.Sorted(maps.Keys(fileValues)) {
		if err := check(k, "--world-file "+file.Path); err != nil {
			return nil, err
		}
		v := jsonvalue.Normalize(fileValues[k])
		if err := checkOverride("--world-file "+file.Path, k, types[k], v, false); err != nil {
			return nil, err
		}
		w[k] = v
	}
	for _, s := range kv {
		k, raw, ok := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("--world %q: expected key=value", s)
		}
		if err := check(k, "--world "+k); err != nil {
			return nil, err
		}
		v, err := parseTyped(raw, types[k])
		if err != nil {
			return nil, fmt.Errorf("--world %s: %v, and the story declares %s type: %s; %s, or leave the key out to keep its default",
				k, err, k, types[k], overrideFix(k, overrideKind(types[k]), true))
		}
		if err := checkOverride("--world", k, types[k], v, true); err != nil {
			return nil, err
		}
		w[k] = v
	}
	return w, nil
}

// StoryWorld returns the world a run of st starts from when nothing is
// overridden: the world: defaults, typed as a run types them (pkg/eval
// renders examples against it).
func StoryWorld(st *story.Story) World {
	w, _ := InitWorld(worldVars(st), nil, nil) // no overrides: cannot fail
	return w
}

func worldVars(st *story.Story) []WorldVar {
	out := make([]WorldVar, 0, len(st.World))
	for _, v := range st.World {
		out = append(out, WorldVar{Name: v.Name, Type: v.Type, Default: jsonvalue.Normalize(v.Default)})
	}
	return out
}

func declaredList(types map[string]string) string {
	keys := slices.Sorted(maps.Keys(types))
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

// LoadWorldFile reads a YAML (or JSON) mapping of world overrides.
// Errors name the file as given: "--world-file l.yaml: must be a YAML
// mapping of world keys to values (got a list)", "--world-file nosuch: no
// such file".
func LoadWorldFile(path string) (map[string]any, error) {
	data, err := safefile.ReadFile(path, safefile.Data)
	if err != nil {
		return nil, fmt.Errorf("--world-file %s: %s", path, safefile.Reason(err))
	}
	// every document is counted once, first: the read below then builds
	// only what is within the limit, the first document once, and reads
	// on from it to check that no second one follows
	masked, slashes := yamlnode.MaskSlashEscapes(data) // `\/` read as upstream reads it
	err = yamlnode.StreamWithin(masked, yamlnode.MaxTreeNodes)
	var doc yaml.Node
	if err == nil {
		err = oneDocument(masked, &doc)
	}
	if slashes {
		yamlnode.UnmaskSlashEscapes(&doc)
	}
	if err != nil {
		return nil, fmt.Errorf("--world-file %s: not valid YAML: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if at := yamlnode.AliasTextFileOver(&doc); at != nil {
		return nil, fmt.Errorf("--world-file %s: line %d: %s", path, at.Line, yamlnode.AliasTextMsg("world file", ""))
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	switch {
	case root.Kind == 0 || (root.Kind == yaml.ScalarNode && root.Tag == "!!null"):
		return nil, nil // an empty file overrides nothing
	case root.Kind != yaml.MappingNode:
		return nil, fmt.Errorf("--world-file %s: must be a YAML mapping of world keys to values (got %s)", path, yamlKind(root))
	}
	if k := yamlnode.ComplexKey(root); k != nil {
		return nil, fmt.Errorf("--world-file %s: line %d, column %d: a mapping or a list is used as a key; a world key is a plain name", path, k.Line, k.Column)
	}
	yamlnode.TextPointlessFloats(root)
	var m map[string]any
	if err := root.Decode(&m); err != nil {
		return nil, worldDecodeError(path, len(data), root, err)
	}
	return m, nil
}

// worldDecodeError is the error of the world file path (size bytes)
// whose mapping root yaml.v3 refused to decode with err: each value it
// refuses placed at its line and column, as the file's other errors are
// ("--world-file w.yaml: line 2, column 4: n: "abc" is not an integer:
// drop the tag !!int ...").
func worldDecodeError(path string, size int, root *yaml.Node, err error) error {
	w := yamlnode.NewFileWalker(path, size)
	w.Undecodable(root, yamlnode.Place{})
	if found := diag.Sort(*w.Out); len(found) > 0 {
		msgs := make([]string, len(found))
		for i, d := range found {
			msgs[i] = fmt.Sprintf("line %d, column %d: %s", d.Line, d.Col, d.Message)
		}
		return fmt.Errorf("--world-file %s: %s", path, strings.Join(msgs, "; "))
	}
	return fmt.Errorf("--world-file %s: must be a YAML mapping of world keys to values: %s", path, strings.ReplaceAll(strings.TrimPrefix(err.Error(), "yaml: "), "\n", " "))
}

// yamlOne decodes data, which must hold one YAML (or JSON) document, into
// v. yaml.Unmarshal reads the first document and drops what follows it,
// even on the same line: "[1]]" or `{"a": 1}}` would read as [1] or {a: 1}.
func yamlOne(data []byte, v any) error {
	// yaml.v3 builds each later document whole: each is counted first
	if err := yamlnode.StreamWithin(data, yamlnode.MaxTreeNodes); err != nil {
		return err
	}
	return oneDocument(data, v)
}

// oneDocument is yamlOne for data whose documents are counted within the
// node limit already (StreamWithin).
func oneDocument(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	for {
		var next yaml.Node
		switch err := dec.Decode(&next); {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("text after the value: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		case len(next.Content) == 1 && next.Content[0].Tag == "!!null" && next.Content[0].Value == "":
			continue // a bare --- ends the value
		}
		return fmt.Errorf("a second document after the value (line %d): write one value", next.Line)
	}
}

// yamlKind names the shape of a YAML node for an error message.
func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a single value"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a document"
}

// parseTyped turns the text of a --world or --slot value into a value of the
// declared type; an undeclared type keeps the string unless it is JSON
// object/array text.
func parseTyped(raw, typ string) (any, error) {
	switch overrideKind(typ) {
	case "int":
		n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an int", raw)
		}
		return int(n), nil
	case "float":
		f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", raw)
		}
		return f, nil
	case "bool":
		b, err := strconv.ParseBool(strings.TrimSpace(raw))
		if err != nil {
			return nil, fmt.Errorf("%q is not a bool (true/false)", raw)
		}
		return b, nil
	case "object", "list":
		var v any
		if err := yamlOne([]byte(raw), &v); err != nil {
			return nil, fmt.Errorf("%q is not a YAML/JSON %s: %v", raw, typ, err)
		}
		return jsonvalue.Normalize(v), nil
	default: // string, or undeclared
		return raw, nil
	}
}

// normalizeFresh is [jsonvalue.Normalize] for values the engine just built (rendered
// templates, decoded results): it converts map[any]any in place instead of
// copying every map.
func normalizeFresh(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			switch x.(type) {
			case map[string]any, []any, map[any]any:
				t[k] = normalizeFresh(x)
			}
		}
		return t
	case []any:
		for i, x := range t {
			switch x.(type) {
			case map[string]any, []any, map[any]any:
				t[i] = normalizeFresh(x)
			}
		}
		return t
	case map[any]any:
		return jsonvalue.Normalize(t)
	default:
		return v
	}
}

// Snapshot returns a deep copy of the world.
func (w World) Snapshot() map[string]any {
	return jsonvalue.Normalize(map[string]any(w)).(map[string]any)
}

// IsEmpty reports whether a bound value counts as "not yet set" for once:.
func IsEmpty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case string:
		return t == ""
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	case json.RawMessage:
		return len(t) == 0
	}
	return false
}

// TypeSlots converts the string values of an --intent's --slot flags to the
// types the story declares for that intent's slots (int, bool, number,
// object, list); undeclared slots stay strings. A value that does not
// parse as its type stays the string it is (the existing engine takes slot
// values as given), unless strict, where it is an error.
func (m *Machine) TypeSlots(in *Input, strict bool) error {
	types := m.SlotTypes[in.Intent]
	for k, v := range in.Slots {
		s, ok := v.(string)
		if !ok {
			continue
		}
		t := types[k]
		if t == "" || t == "string" {
			continue
		}
		tv, err := parseTyped(s, t)
		switch {
		case err == nil:
			in.Slots[k] = tv
		case strict:
			return fmt.Errorf("--intent %s --slot %s: %v (--strict)", in.Intent, k, err)
		}
	}
	return nil
}

// coerceDeclared converts a string value set into a top-level world key
// declared bool, int or float (exactly those names) to that type (story-format §3.3: set coerces
// string results); coerced reports that it did. Any other value, key or
// type, or a string that does not parse as the declared type, is kept as
// it is.
func coerceDeclared(vars []WorldVar, key string, v any) (out any, coerced bool) {
	s, ok := v.(string)
	if !ok {
		return v, false
	}
	// only these three names, as written: upstream keeps the string for
	// integer, number, boolean or Int (conformance set-coercion-type-names)
	switch t := declaredType(vars, key); t {
	case "bool": // as written (conformance values-set-coercion-exact)
		if s == "true" || s == "false" {
			return s == "true", true
		}
	case "int", "float":
		// a number with spaces around it stays a string, as upstream
		if s == strings.TrimSpace(s) {
			if c, err := parseTyped(s, t); err == nil {
				return c, true
			}
		}
	}
	return v, false
}

// SetCoerces reports whether a set: of v into key of st's world is
// coerced to the key's declared type (coerceDeclared): such a value is
// the coerced one for the rest of the turn and, on the orchestrator path,
// the string again after it (docs/compat/engine.md "Set coercion").
func SetCoerces(st *story.Story, key string, v any) bool {
	_, coerced := coerceDeclared(worldVars(st), key, v)
	return coerced
}

// IncrementValue is what an increment: of delta does to the value cur:
// the base upstream reads (incrementBase) plus the delta, ok false when
// the delta is no integer (the turn fails).
func IncrementValue(cur, delta any) (any, bool) {
	d, ok := incrementDelta(delta)
	if !ok {
		return nil, false
	}
	return incrementBase(cur) + d, true
}

// declaredType is world key's declared type: ("" when none).
func declaredType(vars []WorldVar, key string) string {
	if i := slices.IndexFunc(vars, func(wv WorldVar) bool { return wv.Name == key }); i >= 0 {
		return vars[i].Type
	}
	return ""
}

// coerceSet is what a set: of v writes into key: mem in the world, rec in
// its world.update. A coerced string is journaled as the string, as
// upstream (conformance values-set-coercion), unless Options.Strict.
func (r *runner) coerceSet(key string, v any) (mem, rec any, coerced bool) {
	c, coerced := coerceDeclared(r.m.World, key, v)
	if r.so.Strict {
		return c, c, false
	}
	return c, v, coerced
}

// incrementBase is the number an increment adds its delta to, as upstream
// reads it (conformance values-increment): a float truncated, a
// non-number 0.
func incrementBase(v any) int {
	switch t := v.(type) {
	case float64:
		return int(int64Like(t))
	case float32:
		return int(int64Like(float64(t)))
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return int(n)
		}
		f, _ := t.Float64()
		return int(int64Like(f))
	case string, bool:
		return 0
	}
	if n, ok := asInt(v); ok {
		return n
	}
	return 0
}

// seed puts into w what upstream's orchestrator seeds on every load of a
// session, with no event (story-runtime §1.1; conformance probe 08):
// world.session_id unless set, and world.ide (seedIDE).
func (r *runner) seed(w World) {
	if r.so.MachineOnly || w == nil {
		return
	}
	if s, _ := w[story.WorldSessionID].(string); s == "" && r.so.SessionID != "" {
		w[story.WorldSessionID] = r.so.SessionID
	}
	seedIDE(w)
}

// seedIDE sets world.ide.connected to false (kitsoki has no IDE link),
// merged into an existing ide map, never journaled (conformance probe 14).
func seedIDE(w World) {
	m, ok := w[story.WorldIDE].(map[string]any)
	if c, seeded := m["connected"].(bool); ok && seeded && !c {
		return // already there: nothing to copy
	}
	ide := map[string]any{}
	maps.Copy(ide, m)
	ide["connected"] = false
	w[story.WorldIDE] = ide
}

// seedDispatch re-seeds world.ide before a host call is dispatched, in the
// live world and in the snapshot its with: renders against, as upstream
// does before each dispatch (conformance probe 14).
func (r *runner) seedDispatch() {
	if r.so.MachineOnly {
		return
	}
	seedIDE(r.world)
	if r.t.renderWorld != nil {
		seedIDE(r.t.renderWorld)
	}
}
