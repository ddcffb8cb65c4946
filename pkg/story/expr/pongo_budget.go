package expr

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/flosch/pongo2/v6"
)

// The render budget of one pongo2 render. pongo2 has no context and no
// step hook, so the budget rides in the render's context under budgetKey
// and kitsoki's own for, set and macro-entry tags (pongo_tags.go), the
// output writer and the size-producing filters (pongo_filters_sized.go)
// spend it. A render stops on its own when a limit is reached or ctx ends.
const (
	// MaxRenderSteps bounds the loop iterations, macro calls and set
	// statements of one render.
	MaxRenderSteps = 1_000_000
	// MaxRenderBytes bounds a render's output and any one value a filter
	// produces.
	MaxRenderBytes = 16 << 20
	// MaxRenderAlloc bounds the bytes one render keeps in {% set %}
	// variables, counted as they are set.
	MaxRenderAlloc = 256 << 20
	// MaxMacroDepth bounds nested (recursive) macro calls.
	MaxMacroDepth = 200
)

// ErrRenderBudget is wrapped by the *Error of a render stopped by the
// render budget (steps, output size, set size, macro depth).
var ErrRenderBudget = errors.New("render budget exceeded")

// budgetKey is the context key the budget travels under (a valid pongo2
// identifier that no story uses: a template reading it sees nothing useful).
const budgetKey = "__kitsoki_render_budget"

type renderBudget struct {
	ctx   context.Context
	steps int
	alloc int
	depth int
	err   error // the first failure; every later spend fails with it
	// cycles is each cycle tag's position in this render (pongo_tag_cycle.go)
	cycles map[*cycleNode]int
}

// String keeps the budget's inside out of a template that prints it.
func (b *renderBudget) String() string { return "" }

func (b *renderBudget) fail(format string, a ...any) error {
	if b.err == nil {
		b.err = fmt.Errorf("%w: %s", ErrRenderBudget, fmt.Sprintf(format, a...))
	}
	return b.err
}

// step spends one step and checks the context.
func (b *renderBudget) step() error {
	if b.err != nil {
		return b.err
	}
	if err := b.ctx.Err(); err != nil {
		b.err = fmt.Errorf("rendering stopped: %w", err)
		return b.err
	}
	b.steps++
	if b.steps > MaxRenderSteps {
		return b.fail("more than %d loop iterations, macro calls and set statements; render less (slice the list, or summarise it in an effect)", MaxRenderSteps)
	}
	return nil
}

// keep spends the step of a {% set %} and charges the n bytes its
// variable holds.
func (b *renderBudget) keep(n int) error {
	if err := b.step(); err != nil {
		return err
	}
	b.alloc += n
	if b.alloc > MaxRenderAlloc {
		return b.fail("{%% set %%} variables hold more than %d bytes; build less text in the template", MaxRenderAlloc)
	}
	return nil
}

// budgetOf returns the budget a render put in the context (nil outside one).
func budgetOf(ctx *pongo2.ExecutionContext) *renderBudget {
	b, _ := ctx.Public[budgetKey].(*renderBudget)
	return b
}

// budgetWriter is the render's output: it refuses bytes past
// MaxRenderBytes and stops taking any once the budget has failed or the
// context has ended (pongo2 ignores write errors, so the tags check the
// budget too).
type budgetWriter struct {
	b   *renderBudget
	buf strings.Builder
}

func (w *budgetWriter) WriteString(s string) (int, error) {
	b := w.b
	if b.err != nil {
		return 0, b.err
	}
	if err := b.ctx.Err(); err != nil {
		b.err = fmt.Errorf("rendering stopped: %w", err)
		return 0, b.err
	}
	if w.buf.Len()+len(s) > MaxRenderBytes {
		return 0, b.fail("the output is over %d bytes; render less", MaxRenderBytes)
	}
	return w.buf.WriteString(s)
}

func (w *budgetWriter) Write(p []byte) (int, error) { return w.WriteString(string(p)) }

// RenderContext renders the template within the render budget; rendering
// stops when ctx ends. Undefined variables render empty. A render stopped
// by the budget fails with an *Error wrapping ErrRenderBudget; one stopped
// by ctx wraps ctx.Err().
func (p *Pongo) RenderContext(ctx context.Context, env Env) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 render %s: internal error: %s", p.name, plainText(fmt.Sprint(r)))}
		}
	}()
	b := &renderBudget{ctx: ctx}
	pc := make(pongo2.Context, len(env)+1)
	for k, v := range env {
		if k != ContextKey && k != strictKey {
			pc[k] = v
		}
	}
	pc[budgetKey] = b
	w := &budgetWriter{b: b}
	perr := p.tpl.ExecuteWriterUnbuffered(pc, w)
	if b.err != nil {
		return "", &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 render %s: %v", p.name, b.err), Err: b.err}
	}
	if perr != nil {
		return "", p.l.pongoError(p.name, "", perr)
	}
	return w.buf.String(), nil
}

// ContextKey is the Env key under which a caller that cannot pass a
// context to Render (a view renderer behind an interface without one)
// hands the run's context to every render below it.
const ContextKey = "__kitsoki_context"

// Render renders the template within the render budget: RenderContext
// with the context env holds under ContextKey, else context.Background().
func (p *Pongo) Render(env Env) (string, error) {
	ctx, _ := env[ContextKey].(context.Context)
	if ctx == nil {
		ctx = context.Background()
	}
	return p.RenderContext(ctx, env)
}
