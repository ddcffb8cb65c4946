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
// and kitsoki's own for and set tags, the regions around macro bodies and
// includes (pongo_tags.go), the output writer and the size-producing
// filters (pongo_filters_sized.go) spend it. A render stops on its own
// when a limit is reached or ctx ends.
const (
	// MaxRenderSteps bounds the loop iterations, macro calls, includes
	// and set statements of one render.
	MaxRenderSteps = 1_000_000
	// MaxRenderBytes bounds a render's output and any one value a filter
	// produces.
	MaxRenderBytes = 16 << 20
	// MaxRenderAlloc bounds the bytes one render keeps in {% set %}
	// variables, counted as they are set.
	MaxRenderAlloc = 256 << 20
	// MaxMacroDepth bounds nested (recursive) macro calls and includes.
	MaxMacroDepth = 200
	// MaxRenderHeld bounds the bytes includes, macro calls and loops
	// write, counted where pongo2 builds them in buffers of its own (an
	// included template, a macro's result, a filter's body), which hold a
	// whole body before it reaches the render's output and its cap.
	MaxRenderHeld = 64 << 20
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
	held  int
	out   int   // bytes written to the renders' outputs
	err   error // the first failure; every later spend fails with it
	// shared: several renders spend this budget (WithSharedBudget)
	shared bool
	// cycles is each cycle tag's position in this render (pongo_tag_cycle.go)
	cycles map[*cycleNode]int
}

// String keeps the budget's inside out of a template that prints it.
func (b *renderBudget) String() string { return "" }

func (b *renderBudget) fail(format string, a ...any) error {
	if b.err == nil {
		msg := fmt.Sprintf(format, a...)
		if b.shared {
			msg += " (one budget for all the templates a turn or a view renders)"
		}
		b.err = fmt.Errorf("%w: %s", ErrRenderBudget, msg)
	}
	return b.err
}

// write charges n bytes of a render's output.
func (b *renderBudget) write(n int) error {
	if b.err != nil {
		return b.err
	}
	if err := b.ctx.Err(); err != nil {
		b.err = fmt.Errorf("rendering stopped: %w", err)
		return b.err
	}
	if b.out+n > MaxRenderBytes {
		return b.fail("the output is over %d bytes; render less", MaxRenderBytes)
	}
	b.out += n
	return nil
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
		return b.fail("more than %d loop iterations, macro calls, includes and set statements; render less (slice the list, or summarise it in an effect)", MaxRenderSteps)
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

// hold charges the n bytes a loop body, an include or a macro call wrote
// on towards a buffer of pongo2's own.
func (b *renderBudget) hold(n int) error {
	if b.err != nil {
		return b.err
	}
	b.held += n
	if b.held > MaxRenderHeld {
		return b.fail("includes, macro calls and loops built more than %d bytes; render less", MaxRenderHeld)
	}
	return nil
}

// heldWriter is the writer of a loop body, an include or a macro call: it
// charges what they write to the budget before passing it on. Where it
// writes straight into the render's output, those bytes count against
// both caps, harmlessly: the output's is the smaller.
type heldWriter struct {
	b *renderBudget
	w pongo2.TemplateWriter
}

// heldBy returns w charging b, once: a loop inside a loop passes its
// writer on as it is.
func heldBy(b *renderBudget, w pongo2.TemplateWriter) pongo2.TemplateWriter {
	if _, ok := w.(*heldWriter); ok {
		return w
	}
	return &heldWriter{b: b, w: w}
}

func (h *heldWriter) WriteString(s string) (int, error) {
	if err := h.b.hold(len(s)); err != nil {
		return 0, err
	}
	return h.w.WriteString(s)
}

func (h *heldWriter) Write(p []byte) (int, error) {
	if err := h.b.hold(len(p)); err != nil {
		return 0, err
	}
	return h.w.Write(p)
}

// budgetOf returns the budget a render put in the context (nil outside one).
// An include with `only` hands it on as a with-pair, wrapped in a
// *pongo2.Value (rewriteIncludeOnly).
func budgetOf(ctx *pongo2.ExecutionContext) *renderBudget {
	v := ctx.Public[budgetKey]
	if pv, ok := v.(*pongo2.Value); ok {
		v = pv.Interface()
	}
	b, _ := v.(*renderBudget)
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
	if err := w.b.write(len(s)); err != nil {
		return 0, err
	}
	return w.buf.WriteString(s)
}

func (w *budgetWriter) Write(p []byte) (int, error) { return w.WriteString(string(p)) }

// RenderContext renders the template within the render budget; rendering
// stops when ctx ends. Undefined variables render empty. A render stopped
// by the budget fails with an *Error wrapping ErrRenderBudget; one stopped
// by ctx wraps ctx.Err().
func (p *Pongo) RenderContext(ctx context.Context, env Env) (out string, err error) {
	b, shared := ctx.Value(sharedBudgetKey{}).(*renderBudget)
	if shared {
		// ctx carries the budget, so it is the budget's context or one
		// derived from it: its end (a deadline of this render's) counts.
		b.ctx = ctx
		b.cycles = nil // a cycle tag's position is the render's own
	} else {
		b = &renderBudget{ctx: ctx}
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = "", &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 render %s: internal error: %s", p.name, plainText(fmt.Sprint(r)))}
			if b.err != nil {
				// pongo2's include asserts that the write error of its
				// body is its own: a budget failure there panics
				err = &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 render %s: %v", p.name, b.err), Err: b.err}
			}
		}
	}()
	pc := make(pongo2.Context, len(env)+1)
	for k, v := range env {
		if k != ContextKey && k != WarnKey && k != strictKey {
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

// WarnKey is the Env key under which such a caller hands a func(error)
// that hears of problems that do not stop a render (a view element
// whose when: fails and is left out).
const WarnKey = "__kitsoki_warn"

// Render renders the template within the render budget: RenderContext
// with the context env holds under ContextKey, else context.Background().
func (p *Pongo) Render(env Env) (string, error) {
	ctx, _ := env[ContextKey].(context.Context)
	if ctx == nil {
		ctx = context.Background()
	}
	return p.RenderContext(ctx, env)
}

// sharedBudgetKey is the context key of a budget that several renders
// spend together (WithSharedBudget).
type sharedBudgetKey struct{}

// WithSharedBudget returns ctx carrying one render budget that every
// RenderContext (and Render, and a {{ }} Template's Render) under it
// spends, instead of a budget each: the templates of one view (its
// elements, their fields, its layout) or of one engine turn are bounded
// together, so a story cannot multiply the limits by the number of
// templates it writes. The first failure fails every later render. A ctx
// that already carries a shared budget is returned as it is: a view
// rendered within a turn spends the turn's budget.
func WithSharedBudget(ctx context.Context) context.Context {
	if _, ok := ctx.Value(sharedBudgetKey{}).(*renderBudget); ok {
		return ctx
	}
	return context.WithValue(ctx, sharedBudgetKey{}, &renderBudget{ctx: ctx, shared: true})
}

// ShareBudget returns ctx carrying the shared budget of from (as
// WithSharedBudget made it), so renders under ctx end with ctx and spend
// from's budget; ctx as it is when from carries none.
func ShareBudget(ctx, from context.Context) context.Context {
	b, ok := from.Value(sharedBudgetKey{}).(*renderBudget)
	if !ok {
		return ctx
	}
	return context.WithValue(ctx, sharedBudgetKey{}, b)
}

// sharedBudgetOf returns the shared budget env's context carries (nil:
// none), its context set to env's so that the context's end counts.
func sharedBudgetOf(env Env) *renderBudget {
	ctx, _ := env[ContextKey].(context.Context)
	if ctx == nil {
		return nil
	}
	b, _ := ctx.Value(sharedBudgetKey{}).(*renderBudget)
	if b != nil {
		b.ctx = ctx
	}
	return b
}
