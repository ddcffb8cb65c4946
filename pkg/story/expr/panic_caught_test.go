package expr

import (
	"context"
	"errors"
	"strings"
	"testing"

	"kitsoki/internal/panicked"
)

// panickyCtx is a context whose Err panics: kitsoki's own code around
// the libraries (the run's end heard before an evaluation, the render
// budget's writer) calls it, so it stands in for a kitsoki bug there.
type panickyCtx struct{ context.Context }

func (panickyCtx) Err() error { panic("ctx exploded") }

// wantBug checks err is a kitsoki bug in panicked's wording, of kind.
func wantBug(t *testing.T, err error, kind ErrorKind, prefix string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Kind != kind {
		t.Fatalf("got %v, want an *Error of kind %v", err, kind)
	}
	if _, ok := errors.AsType[*panicked.Error](err); !ok || !strings.HasPrefix(e.Msg, prefix) ||
		!strings.HasSuffix(e.Msg, "panicked: ctx exploded (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr)") {
		t.Fatalf("message: %s\nwant %s… panicked: ctx exploded (a kitsoki bug …)", e.Msg, prefix)
	}
}

// A panic in kitsoki's code around an evaluation is a kitsoki bug,
// worded by internal/panicked (expr eval's and pongo2 render's recovers).
func TestCaughtPanicIsAKitsokiBug(t *testing.T) {
	ctx := panickyCtx{context.Background()}
	p, err := CompileGuard(`world.x == 1`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Eval(Env{ContextKey: ctx, "world": map[string]any{"x": 1}})
	wantBug(t, err, KindEval, `expr eval "world.x == 1": the expression evaluator panicked`)

	tpl, err := CompilePongo(`hello {{ name }}`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tpl.RenderContext(ctx, Env{"name": "you"})
	wantBug(t, err, KindPongo, "pongo2 render <string>: the template renderer panicked")
}

// pongo2 panics on a {% for %} loop "sorted" over a string: that is
// story input, so the render fails as a user error naming the fix, with
// no stack and no "kitsoki bug".
func TestSortedStringIsAUserError(t *testing.T) {
	tpl, err := CompilePongo(`{% for c in s sorted %}{{ c }}{% endfor %}`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tpl.Render(Env{"s": "abc"})
	want := `pongo2 render <string>: a {% for %} loop over a string cannot be "sorted" (pongo2 sorts lists and maps only): drop "sorted", or loop over a list`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	if _, ok := errors.AsType[*panicked.Error](err); ok {
		t.Fatalf("a user error worded as a bug: %v", err)
	}
	// a list renders as before
	if out, err := tpl.Render(Env{"s": []any{"b", "a"}}); err != nil || out == "" {
		t.Fatalf("sorted list: %q %v", out, err)
	}
}
