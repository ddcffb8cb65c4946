package expr

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/flosch/pongo2/v6"
)

// The render budget of one pongo2 render. pongo2 has no context or step
// hook, so the budget rides in the render's context under budgetKey and
// kitsoki's tags (pongo_tags.go), the output writer and the sized filters
// spend it.
const (
	// MaxRenderSteps bounds loop iterations, macro calls, includes and sets.
	MaxRenderSteps = 1_000_000
	// MaxRenderBytes bounds a render's output and any value a filter makes.
	MaxRenderBytes = 16 << 20
	// MaxRenderAlloc bounds the bytes one render keeps in {% set %} variables.
	MaxRenderAlloc = 256 << 20
	// MaxMacroDepth bounds nested (recursive) macro calls and includes.
	MaxMacroDepth = 200
	// MaxRenderHeld bounds what includes, macro calls and loops write into
	// pongo2's own buffers before it reaches the output's cap.
	MaxRenderHeld = 64 << 20
)

// RenderLimits bound one render's steps, output and held bytes; a field at
// 0 is the production bound (MaxRenderSteps, MaxRenderBytes,
// MaxRenderHeld), the one every story renders with.
type RenderLimits struct {
	Steps int // replaces MaxRenderSteps when above 0
	Out   int // replaces MaxRenderBytes for the budget's output when above 0
	Held  int // replaces MaxRenderHeld when above 0
}

// steps, out and held are the bounds r sets, a field at 0 or below the
// production one.
func (r RenderLimits) steps() int { return cmp.Or(max(r.Steps, 0), MaxRenderSteps) }
func (r RenderLimits) out() int   { return cmp.Or(max(r.Out, 0), MaxRenderBytes) }
func (r RenderLimits) held() int  { return cmp.Or(max(r.Held, 0), MaxRenderHeld) }

// ErrRenderBudget is wrapped by the *Error of a render over its budget.
var ErrRenderBudget = errors.New("render budget exceeded")

// budgetKey is the context key the budget travels under (no story uses it).
const budgetKey = "__kitsoki_render_budget"

type renderBudget struct {
	ctx   context.Context
	lim   RenderLimits
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
	// ifchanged is what each ifchanged tag saw last in this render
	// (pongo_tag_ifchanged.go)
	ifchanged map[*ifchangedNode]*ifchangedSeen
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

// live returns the budget's failure, or the context's end as one.
func (b *renderBudget) live() error {
	if b.err == nil && b.ctx.Err() != nil {
		b.err = fmt.Errorf("rendering stopped: %w", b.ctx.Err())
	}
	return b.err
}

// write charges n bytes of a render's output.
func (b *renderBudget) write(n int) error {
	if err := b.live(); err != nil {
		return err
	}
	if b.out+n > b.lim.out() {
		return b.fail("the output is over %d bytes; render less", b.lim.out())
	}
	b.out += n
	return nil
}

// step spends one step and checks the context.
func (b *renderBudget) step() error {
	if err := b.live(); err != nil {
		return err
	}
	b.steps++
	if b.steps > b.lim.steps() {
		return b.fail("more than %d loop iterations, macro calls, includes and set statements; render less (slice the list, or summarise it in an effect)", b.lim.steps())
	}
	return nil
}

// keep spends a {% set %}'s step and charges the n bytes it holds.
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

// hold charges n bytes written towards a buffer of pongo2's own.
func (b *renderBudget) hold(n int) error {
	if b.err != nil {
		return b.err
	}
	b.held += n
	if b.held > b.lim.held() {
		return b.fail("includes, macro calls and loops built more than %d bytes; render less", b.lim.held())
	}
	return nil
}

// heldWriter charges what a loop body, an include or a macro call writes
// to the budget before passing it on.
type heldWriter struct {
	b *renderBudget
	w pongo2.TemplateWriter
}

// heldBy returns w charging b, once (nested loops pass it on as is).
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

// budgetOf returns the budget a render put in the context (nil outside
// one); an include with `only` hands it on wrapped in a *pongo2.Value.
func budgetOf(ctx *pongo2.ExecutionContext) *renderBudget {
	v := ctx.Public[budgetKey]
	if pv, ok := v.(*pongo2.Value); ok {
		v = pv.Interface()
	}
	b, _ := v.(*renderBudget)
	return b
}

// budgetWriter is the render's output, refusing bytes once the budget has
// failed (pongo2 ignores write errors, so the tags check the budget too).
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

// RenderContext renders the template within the render budget until ctx
// ends (undefined variables render empty); errors wrap ErrRenderBudget or ctx.Err().
func (p *Pongo) RenderContext(ctx context.Context, env Env) (out string, err error) {
	b, shared := ctx.Value(sharedBudgetKey{}).(*renderBudget)
	if shared {
		// ctx carries the budget, so its end counts
		b.ctx = ctx
		b.cycles = nil // a cycle tag's position is the render's own
		b.ifchanged = nil
	} else {
		b = &renderBudget{ctx: ctx}
		if p.l != nil {
			b.lim = p.l.Limits
		}
	}
	defer func() {
		if r := recover(); r != nil {
			out = ""
			switch {
			case b.err != nil:
				// pongo2's include panics on a budget failure in its body
				err = &Error{Kind: KindPongo, Msg: fmt.Sprintf("pongo2 render %s: %v", p.name, b.err), Err: b.err}
			case r == pongoSortString:
				err = sortedStringError(p.name)
			default:
				err = caught(KindPongo, "pongo2 render "+p.name, "the template renderer", "", r)
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
// context to Render hands the run's context to every render below it.
const ContextKey = "__kitsoki_context"

// WarnKey is the Env key of a func(error) hearing of non-fatal problems.
const WarnKey = "__kitsoki_warn"

// Render is RenderContext with env's ContextKey context (or Background).
func (p *Pongo) Render(env Env) (string, error) {
	ctx, _ := env[ContextKey].(context.Context)
	if ctx == nil {
		ctx = context.Background()
	}
	return p.RenderContext(ctx, env)
}

// sharedBudgetKey is the context key of a shared budget.
type sharedBudgetKey struct{}

// WithSharedBudget returns ctx carrying one render budget that every
// render under it spends, so a story cannot multiply the limits by the
// number of templates of a view or turn; the first failure fails every
// later render. A ctx already carrying one is returned as it is.
func WithSharedBudget(ctx context.Context) context.Context {
	return withSharedBudget(ctx, RenderLimits{})
}

// withSharedBudget is WithSharedBudget bounded by lim (the zero value is
// the production bounds): tests spend a small one.
func withSharedBudget(ctx context.Context, lim RenderLimits) context.Context {
	if _, ok := ctx.Value(sharedBudgetKey{}).(*renderBudget); ok {
		return ctx
	}
	return context.WithValue(ctx, sharedBudgetKey{}, &renderBudget{ctx: ctx, lim: lim, shared: true})
}

// ShareBudget returns ctx carrying from's shared budget, if any.
func ShareBudget(ctx, from context.Context) context.Context {
	b, ok := from.Value(sharedBudgetKey{}).(*renderBudget)
	if !ok {
		return ctx
	}
	return context.WithValue(ctx, sharedBudgetKey{}, b)
}

// sharedBudgetOf returns the shared budget of env's context (or nil).
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
