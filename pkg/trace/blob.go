package trace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"kitsoki/internal/safefile"
)

// blobThreshold is the size over which a payload's string values (and,
// when the line would still be too long, its arrays and objects) leave the
// line for a blob file under agent-prompts/ beside the trace. Blobs are
// named by their content's sha256, so a large answer that recurs in many
// events (harness.returned, world.update, machine.say) is stored once.
const blobThreshold = 256 << 10

// blobKey is the key of a blob reference: a value written as
// {"$kitsoki_blob": "agent-prompts/blob-<sha256>.txt", "bytes": N} stands
// for the string held raw in that file (".json": the JSON value held in it).
// Readers given the trace's directory put the value back (ReadOptions.Dir).
const blobKey = "$kitsoki_blob"

// spill rewrites payload with its large values moved to blob files: first
// every string over blobThreshold; then, while the payload is still over
// the line bound, the largest array or object.
func (w *Writer) spill(payload json.RawMessage) (json.RawMessage, error) {
	v, err := decodeNumbers(payload)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	v, err = w.spillStrings(v)
	if err != nil {
		return nil, err
	}
	out, err := marshalNoHTML(v)
	if err != nil {
		return nil, err
	}
	// Containers, largest first, until the line fits (with room for the
	// envelope).
	budget := w.opt.MaxLineBytes - 4096
	for len(out) > budget {
		path, size := largestContainer(v, nil, 0)
		if path == nil || size <= blobThreshold {
			break // nothing left to move: the caller refuses the event
		}
		if v, err = w.spillAt(v, path); err != nil {
			return nil, err
		}
		if out, err = marshalNoHTML(v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (w *Writer) spillStrings(v any) (any, error) {
	switch x := v.(type) {
	case string:
		if len(x) > blobThreshold {
			return w.blobRef([]byte(x), ".txt")
		}
	case map[string]any:
		for k, e := range x {
			r, err := w.spillStrings(e)
			if err != nil {
				return nil, err
			}
			x[k] = r
		}
	case []any:
		for i, e := range x {
			r, err := w.spillStrings(e)
			if err != nil {
				return nil, err
			}
			x[i] = r
		}
	}
	return v, nil
}

// largestContainer returns the path (keys and indexes) of the largest
// array or object below the root, and its encoded size.
func largestContainer(v any, path []any, depth int) ([]any, int) {
	var best []any
	bestSize := 0
	consider := func(p []any, e any) {
		switch e.(type) {
		case map[string]any, []any:
			if isBlobRef(e) {
				return
			}
			b, _ := marshalNoHTML(e)
			if len(b) > bestSize {
				best, bestSize = p, len(b)
			}
			if sub, n := largestContainer(e, p, depth+1); n > blobThreshold && n*2 > bestSize {
				// prefer a smaller inner container that holds most of it
				best, bestSize = sub, n
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			consider(append(append([]any{}, path...), k), e)
		}
	case []any:
		for i, e := range x {
			consider(append(append([]any{}, path...), i), e)
		}
	}
	return best, bestSize
}

func (w *Writer) spillAt(root any, path []any) (any, error) {
	parent := root
	for _, p := range path[:len(path)-1] {
		switch k := p.(type) {
		case string:
			parent = parent.(map[string]any)[k]
		case int:
			parent = parent.([]any)[k]
		}
	}
	last := path[len(path)-1]
	var val any
	switch k := last.(type) {
	case string:
		val = parent.(map[string]any)[k]
	case int:
		val = parent.([]any)[k]
	}
	b, err := marshalNoHTML(val)
	if err != nil {
		return nil, err
	}
	ref, err := w.blobRef(b, ".json")
	if err != nil {
		return nil, err
	}
	switch k := last.(type) {
	case string:
		parent.(map[string]any)[k] = ref
	case int:
		parent.([]any)[k] = ref
	}
	return root, nil
}

// blobRef stores data once under agent-prompts/blob-<sha256><ext> and
// returns its reference object.
func (w *Writer) blobRef(data []byte, ext string) (any, error) {
	sum := sha256.Sum256(data)
	name := "blob-" + hex.EncodeToString(sum[:]) + ext
	dir := filepath.Join(w.dir, promptsDir)
	p := filepath.Join(dir, name)
	if fi, err := os.Stat(p); err != nil || fi.Size() != int64(len(data)) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("blob dir: %w", err)
		}
		// Written beside, then renamed: a crash never leaves a short blob
		// under its final name.
		tmp, err := os.CreateTemp(dir, ".blob-*")
		if err != nil {
			return nil, fmt.Errorf("blob: %w", err)
		}
		_, err = tmp.Write(data)
		if err == nil && w.opt.Sync != SyncNever {
			err = tmp.Sync()
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), p)
		}
		if err != nil {
			os.Remove(tmp.Name())
			return nil, fmt.Errorf("blob %s: %w", p, err)
		}
	}
	return map[string]any{blobKey: promptsDir + "/" + name, "bytes": len(data)}, nil
}

func isBlobRef(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 2 {
		return false
	}
	_, ok = m[blobKey].(string)
	return ok
}

func marshalNoHTML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

var blobMarker = []byte(`"` + blobKey + `"`)

// resolveBlobs puts the values of blob references in payload back, reading
// each file (under the trace's agent-prompts/, at most limit bytes).
func resolveBlobs(tracePath string, payload json.RawMessage, limit int) (json.RawMessage, error) {
	if !bytes.Contains(payload, blobMarker) {
		return payload, nil
	}
	v, err := decodeNumbers(payload)
	if err != nil {
		return nil, err
	}
	v, err = resolveValue(tracePath, v, int64(limit))
	if err != nil {
		return nil, err
	}
	return marshalNoHTML(v)
}

func resolveValue(tracePath string, v any, limit int64) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		if isBlobRef(x) {
			ref, p, err := blobFile(tracePath, x)
			if err != nil {
				return nil, err
			}
			b, err := safefile.ReadFile(p, limit)
			if err != nil {
				return nil, fmt.Errorf("blob %s: %w", ref, err)
			}
			if err := checkBlobSize(ref, x, int64(len(b))); err != nil {
				return nil, err
			}
			if filepath.Ext(ref) == ".txt" {
				return string(b), nil
			}
			out, err := decodeNumbers(b)
			if err != nil {
				return nil, fmt.Errorf("blob %s: %w", ref, err)
			}
			return out, nil
		}
		for k, e := range x {
			r, err := resolveValue(tracePath, e, limit)
			if err != nil {
				return nil, err
			}
			x[k] = r
		}
	case []any:
		for i, e := range x {
			r, err := resolveValue(tracePath, e, limit)
			if err != nil {
				return nil, err
			}
			x[i] = r
		}
	}
	return v, nil
}

// checkBlobs checks that each blob payload refers to exists beside the
// trace with its recorded size (without reading it).
func checkBlobs(tracePath string, payload json.RawMessage) error {
	v, err := decodeNumbers(payload)
	if err != nil {
		return err
	}
	var walk func(v any) error
	walk = func(v any) error {
		switch x := v.(type) {
		case map[string]any:
			if isBlobRef(x) {
				ref, p, err := blobFile(tracePath, x)
				if err != nil {
					return err
				}
				fi, err := os.Stat(p)
				if err != nil {
					return fmt.Errorf("blob %s: %w", ref, err)
				}
				return checkBlobSize(ref, x, fi.Size())
			}
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(v)
}

// decodeNumbers decodes the first JSON value of b, numbers kept as
// json.Number (so values re-encode as they were).
func decodeNumbers(b []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// blobFile returns the reference of the blob reference x and the file it
// names beside the trace.
func blobFile(tracePath string, x map[string]any) (ref, path string, err error) {
	ref = x[blobKey].(string)
	path, err = ResolveSidecar(tracePath, ref)
	return ref, path, err
}

// checkBlobSize checks a blob file's size against the "bytes" its
// reference x records, when it records one.
func checkBlobSize(ref string, x map[string]any, size int64) error {
	if n, ok := x["bytes"].(json.Number); ok && n.String() != fmt.Sprint(size) {
		return fmt.Errorf("blob %s holds %d bytes, the trace says %s: the blob file was changed or cut", ref, size, n)
	}
	return nil
}
