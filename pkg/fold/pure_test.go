package fold

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// foldable lists every corpus story and every testdata story that folds.
func foldable(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(corpusDir(t), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "app.yaml" && filepath.Base(filepath.Dir(filepath.Dir(p))) != "stories" {
			if b := filepath.Base(filepath.Dir(p)); b != "cycle_a" && b != "cycle_b" {
				out = append(out, filepath.Dir(p))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("corpus not found at %s (found %d stories)", corpusDir(t), len(out))
	}
	sort.Strings(out)
	return append(out, "testdata/nested/top", "testdata/nested/mid", "testdata/overrides/parent")
}

// TestFoldIsPureAndDeterministic folds every story twice: the input must
// equal a second, untouched load of the same files, and both folds must
// be equal (no map-order leaks).
func TestFoldIsPureAndDeterministic(t *testing.T) {
	for _, dir := range foldable(t) {
		t.Run(dir, func(t *testing.T) {
			a, _ := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv, Trees: storyload.Trees()})
			b, _ := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv, Trees: storyload.Trees()})
			if a == nil || b == nil {
				t.Fatal("no story")
			}
			f1, err1 := New(a, Options{})
			f2, err2 := New(a, Options{})
			if err1 != nil || err2 != nil {
				t.Fatalf("fold: %v / %v", err1, err2)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatal("the fold changed its input")
			}
			if !reflect.DeepEqual(f1.Story, f2.Story) {
				t.Fatal("two folds of one story differ")
			}
			if d1, d2 := dump(f1), dump(f2); d1 != d2 {
				t.Fatalf("dumps differ:\n%s\n---\n%s", d1, d2)
			}
			// Folding the fold changes nothing more: no imports are left.
			f3, err := New(f1.Story, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !exportedEqual(f1.Story, f3.Story) {
				t.Fatal("refolding the folded story changed it")
			}
			for _, s := range f1.Story.AllStates() {
				if s.Import != nil {
					t.Errorf("state %s keeps an import marker", s.Path)
				}
				if stateAt(f1, s.Path) != s {
					t.Errorf("state %s is not the first at its path (two states share it)", s.Path)
				}
				if s.Parent != nil && s.Path != s.Parent.Path+"."+s.Name {
					t.Errorf("state %s under %s: path not re-based", s.Path, s.Parent.Path)
				}
			}
		})
	}
}

func TestImportCycleIsAnErrorNotAHang(t *testing.T) {
	st, _ := lint.Load(filepath.Join(corpusDir(t), "imports_smoke/cycle_a"), story.Options{Trees: storyload.Trees()})
	if st == nil {
		t.Fatal("no story")
	}
	if _, err := New(st, Options{}); err == nil {
		t.Fatal("a cyclic import folded")
	}
}

// TestStoryWithoutImportsFoldsToAnEqualCopy: the exported model is the
// same, the objects are new.
func TestStoryWithoutImportsFoldsToAnEqualCopy(t *testing.T) {
	st := storyload.Load(t, filepath.Join(corpusDir(t), "cloak"), story.Options{})
	f := mustFold(t, st)
	if f.Story == st {
		t.Fatal("same pointer")
	}
	a, b := st.AllStates(), f.Story.AllStates()
	if len(a) != len(b) {
		t.Fatalf("%d states, want %d", len(b), len(a))
	}
	for i := range a {
		if a[i] == b[i] {
			t.Errorf("state %s shared with the input", a[i].Path)
		}
		if !exportedEqual(a[i], b[i]) {
			t.Errorf("state %s differs after the fold", a[i].Path)
		}
	}
	if !exportedEqual(st.World, f.Story.World) || !exportedEqual(st.Intents, f.Story.Intents) {
		t.Error("world or intents differ")
	}
}

// TestCloneKeepsEveryExportedField guards copy.go against new fields in
// pkg/story's model: every exported field survives, unexported ones are
// left zero.
func TestCloneKeepsEveryExportedField(t *testing.T) {
	st := storyload.Load(t, filepath.Join(corpusDir(t), "imports_smoke/parent"), story.Options{})
	c := cloneExported(st)
	v, cv := reflect.ValueOf(st).Elem(), reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if f.IsExported() {
			if !reflect.DeepEqual(v.Field(i).Interface(), cv.Field(i).Interface()) {
				t.Errorf("field %s lost", f.Name)
			}
		} else if !cv.Field(i).IsZero() {
			t.Errorf("unexported field %s copied", f.Name)
		}
	}
}

func TestOptionsBindings(t *testing.T) {
	st := storyload.Load(t, filepath.Join(corpusDir(t), "frontier_event"), story.Options{})
	f, err := New(st, Options{Bindings: map[string]string{"narrator": "host.diary", "bandits__narrator": "host.agent.ask"}})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "narrator", f.Story.HostInterfaces["narrator"].Default, "host.diary")
	eq(t, "bandits__narrator", f.Story.HostInterfaces["bandits__narrator"].Default, "host.agent.ask")
	eq(t, "input untouched", st.HostInterfaces["narrator"].Default, "host.run")
	// a name the story has no interface of is ignored, as upstream's flow
	// rig (conformance fixture-bindings-lifted: bandits__nope)
	g, err := New(st, Options{Bindings: map[string]string{"nope": "host.run", "bandits__nope": "host.run"}})
	if err != nil {
		t.Fatalf("a binding of an unknown interface refused the fold: %v", err)
	}
	if _, ok := g.Story.HostInterfaces["nope"]; ok {
		t.Error("a binding of an unknown interface made one")
	}
}

// exportedEqual compares two values through their exported fields only
// (pkg/story's private indices and yaml nodes are not part of the model a
// fold promises), following pointers once per pair.
func exportedEqual(a, b any) bool {
	type pair struct{ a, b uintptr }
	seen := map[pair]bool{}
	var eqv func(x, y reflect.Value) bool
	eqv = func(x, y reflect.Value) bool {
		if x.IsValid() != y.IsValid() {
			return false
		}
		if !x.IsValid() {
			return true
		}
		if x.Type() != y.Type() {
			return false
		}
		switch x.Kind() {
		case reflect.Pointer:
			if x.IsNil() || y.IsNil() {
				return x.IsNil() == y.IsNil()
			}
			k := pair{x.Pointer(), y.Pointer()}
			if seen[k] {
				return true
			}
			seen[k] = true
			return eqv(x.Elem(), y.Elem())
		case reflect.Interface:
			if x.IsNil() || y.IsNil() {
				return x.IsNil() == y.IsNil()
			}
			return eqv(x.Elem(), y.Elem())
		case reflect.Struct:
			for i := 0; i < x.NumField(); i++ {
				if x.Type().Field(i).IsExported() && !eqv(x.Field(i), y.Field(i)) {
					return false
				}
			}
			return true
		case reflect.Slice, reflect.Array:
			if x.Len() != y.Len() {
				return false
			}
			for i := 0; i < x.Len(); i++ {
				if !eqv(x.Index(i), y.Index(i)) {
					return false
				}
			}
			return true
		case reflect.Map:
			if x.Len() != y.Len() {
				return false
			}
			for _, k := range x.MapKeys() {
				yv := y.MapIndex(k)
				if !yv.IsValid() || !eqv(x.MapIndex(k), yv) {
					return false
				}
			}
			return true
		}
		return reflect.DeepEqual(x.Interface(), y.Interface())
	}
	return eqv(reflect.ValueOf(a), reflect.ValueOf(b))
}
