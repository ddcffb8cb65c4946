package flowtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"kitsoki/internal/testing/storytest"
)

// mutation is one asserted value of a fixture changed to another.
type mutation struct {
	kind string
	fx   *Fixture
	path []step
	want any
}

// TestUpdateRoundTripCorpus: in every corpus fixture, each kind of
// asserted value it has (the first of each kind) is changed, --update
// runs, and the file must come back byte for byte, comments included.
func TestUpdateRoundTripCorpus(t *testing.T) {
	src := storytest.CorpusDir()
	if src == "" {
		t.Skip("no shared corpus here")
	}
	dir := storytest.TempCopy(t, src)
	apps, err := corpusApps(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := DiscoverUnder("", nil, apps, "", false, nil)
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus fixtures: %v", err)
	}
	runners := map[string]*Runner{}
	runner := func(app string) *Runner {
		if runners[app] == nil {
			runners[app] = NewRunner(Options{Jobs: 1, Observe: true, Trees: []string{dir}})
		}
		return runners[app]
	}
	ctx := context.Background()
	kinds := map[string]int{}
	tried, restored := 0, 0
	for _, f := range files {
		r := runner(f.Story)
		base := r.Run(ctx, []*File{f})
		passing := map[string]bool{}
		for _, res := range base {
			passing[res.Name] = res.Passed()
		}
		orig, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mutations(f, passing) {
			name := fmt.Sprintf("%s %s", rel(dir, f.Path), m.kind)
			mutated, err := mutate(orig, m)
			if err != nil {
				t.Logf("%s: not mutated: %v", name, err)
				continue
			}
			tried++
			if err := os.WriteFile(f.Path, mutated, 0o644); err != nil {
				t.Fatal(err)
			}
			got, why := updateOnce(ctx, r, f)
			if err := os.WriteFile(f.Path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			if why != "" {
				t.Errorf("%s: %s", name, why)
				continue
			}
			if !bytes.Equal(got, orig) {
				t.Errorf("%s: --update did not give the original back:\n%s", name, firstDiff(orig, got))
				continue
			}
			restored++
			kinds[m.kind]++
		}
	}
	t.Logf("%d fixture files, %d mutations, %d restored byte for byte; by kind: %v", len(files), tried, restored, kinds)
	if restored == 0 {
		t.Fatal("no mutation was restored: the round trip tested nothing")
	}
	// The corpus asserts no host call args or times (update_test.go's
	// story does).
	for _, k := range []string{"expect_state", "expect_world", "expect_view_matches", "expect_error.code"} {
		if kinds[k] == 0 {
			t.Errorf("no corpus fixture exercised %s", k)
		}
	}
}

// updateOnce runs the fixture file (as now on disk) with --update's
// observation, writes the update and returns the file's new bytes, or why
// it was not updated.
func updateOnce(ctx context.Context, r *Runner, f *File) ([]byte, string) {
	fs, ds, err := DiscoverUnder("", nil, []string{f.Story}, f.Path, false, nil)
	if err != nil || len(fs) != 1 {
		return nil, fmt.Sprintf("the mutated file is not discovered: %v %v", err, ds)
	}
	results := r.Run(ctx, fs)
	u := r.Update(ctx, fs, results)
	if len(u.Refused) > 0 {
		var b strings.Builder
		for _, x := range u.Refused {
			fmt.Fprintf(&b, "refused %s (%s): %s; ", x.Fixture, x.Pos, x.Reason)
		}
		return nil, b.String()
	}
	if len(u.Files) != 1 || u.Changes == 0 {
		return nil, fmt.Sprintf("nothing updated (%d files, %d changes)", len(u.Files), u.Changes)
	}
	if err := r.WriteUpdate(u); err != nil {
		return nil, err.Error()
	}
	b, err := os.ReadFile(f.Path)
	if err != nil {
		return nil, err.Error()
	}
	if !bytes.Equal(b, u.Files[0].New) {
		return nil, "the file written is not the update planned"
	}
	return b, ""
}

// mutations are the first asserted value of each kind in each of the
// file's passing fixtures, each changed.
func mutations(f *File, passing map[string]bool) []mutation {
	seen := map[string]bool{}
	var out []mutation
	add := func(kind string, fx *Fixture, path []step, want any) {
		if k := fmt.Sprint(fx.Doc, kind); !seen[k] {
			seen[k] = true
			out = append(out, mutation{kind, fx, path, want})
		}
	}
	for _, fx := range f.Fixtures {
		if !passing[fx.Name()] {
			continue
		}
		for _, t := range fx.Turns {
			at := func(s ...step) []step { return append([]step{keyStep("turns"), indexStep(t.Index)}, s...) }
			if t.ExpectError != nil {
				code := "GUARD_FAILED"
				if t.ExpectError.Code == code {
					code = "UNKNOWN_INTENT"
				}
				add("expect_error.code", fx, at(keyStep("expect_error"), keyStep("code")), code)
				continue
			}
			if t.ExpectState != nil {
				add("expect_state", fx, at(keyStep("expect_state")), *t.ExpectState+"_changed")
			}
			if len(t.ExpectWorld) > 0 {
				kv := t.ExpectWorld[0]
				add("expect_world", fx, at(keyStep("expect_world"), keyStep(kv.Key)), changed(kv.Value))
			}
			if p := t.ExpectViewMatches; p != nil {
				if np, ok := changedPattern(*p); ok {
					add("expect_view_matches", fx, at(keyStep("expect_view_matches")), np)
				}
			}
			for i, hc := range t.ExpectHostCalls {
				if hc.Times != nil {
					add("expect_host_calls.times", fx, at(keyStep("expect_host_calls"), indexStep(i), keyStep("times")), int64(*hc.Times+1))
				}
				if len(hc.Args) > 0 {
					kv := hc.Args[0]
					add("expect_host_calls.args", fx, at(keyStep("expect_host_calls"), indexStep(i), keyStep("args"), keyStep(kv.Key)), changed(kv.Value))
				}
			}
		}
		for _, kv := range fx.ExpectWorldFinal {
			add("expect_world_final", fx, []step{keyStep("expect_world_final"), keyStep(kv.Key)}, changed(kv.Value))
		}
	}
	return out
}

// mutate writes the mutation into the file with the splicer itself.
func mutate(src []byte, m mutation) ([]byte, error) {
	docs := flowDocs(src)
	if m.fx.Doc > len(docs) {
		return nil, fmt.Errorf("document %d not found", m.fx.Doc)
	}
	s := docs[m.fx.Doc-1]
	n, flow, err := s.node(m.path)
	if err != nil {
		return nil, err
	}
	es, err := s.rewrite(n, m.path, m.want, flow)
	if err != nil {
		return nil, err
	}
	return applyEdits(src, es), nil
}

// changed is a different value of the same shape: one leaf changed.
func changed(v any) any {
	switch t := v.(type) {
	case string:
		return t + "_changed"
	case bool:
		return !t
	case int64:
		return t + 1
	case float64:
		return t + 1.5
	case nil:
		return "was_null"
	case []any:
		if len(t) == 0 {
			return []any{"added"}
		}
		out := append([]any(nil), t...)
		out[0] = changed(out[0])
		return out
	case map[string]any:
		if len(t) == 0 {
			return map[string]any{"added": true}
		}
		out := make(map[string]any, len(t))
		first := ""
		for k, x := range t {
			out[k] = x
			if first == "" || k < first {
				first = k
			}
		}
		out[first] = changed(out[first])
		return out
	}
	return fmt.Sprint(v) + "_changed"
}

// changedPattern changes a view pattern the way views drift: a letter of
// literal text, or the width of a space run of a regular expression.
func changedPattern(p string) (string, bool) {
	rs := []rune(p)
	if isLiteral(p) {
		for i := len(rs) / 2; i < len(rs); i++ {
			if unicode.IsLetter(rs[i]) {
				if rs[i] == 'q' {
					rs[i] = 'z'
				} else {
					rs[i] = 'q'
				}
				return string(rs), true
			}
		}
		return "", false
	}
	if i := strings.Index(p, " "); i >= 0 && !strings.Contains(p, "[") {
		return p[:i] + " " + p[i:], true
	}
	return "", false
}

func isLiteral(p string) bool { return !strings.ContainsAny(p, `\.+*?()|[]{}^$`) }

func rel(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil {
		return r
	}
	return p
}

// firstDiff shows the bytes around the first place a and b differ.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d:\n  want %q\n  got  %q", i, a[from:min(len(a), i+80)], b[from:min(len(b), i+80)])
}
