package plugin

import (
	"context"
	"fmt"
	"reflect"
	"sync"
)

// budgetHook is the built-in budget provider. agent/post-return adds the
// call's reported cost (meta.cost_usd or meta.total_cost_usd) and tokens
// (meta.usage.input_tokens + output_tokens, or meta.tokens) to the run's
// totals; agent/pre-dispatch halts every later call once a total has
// reached its limit. One budgetHook serves one run (one Chain).
type budgetHook struct {
	cfg    BudgetConfig
	mu     sync.Mutex
	cost   float64
	tokens int64
}

func (b *budgetHook) Hook(_ context.Context, point Point, p Payload) (Result, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch point {
	case pointPreDispatch:
		if b.cfg.MaxCostUSD > 0 && b.cost >= b.cfg.MaxCostUSD {
			return Result{Outcome: outcomeHalt, Reason: fmt.Sprintf("run budget spent: reported cost $%.4f reached the limit $%.4f (config.budget.max_cost_usd)", b.cost, b.cfg.MaxCostUSD)}, nil
		}
		if b.cfg.MaxTokens > 0 && b.tokens >= b.cfg.MaxTokens {
			return Result{Outcome: outcomeHalt, Reason: fmt.Sprintf("run budget spent: %d reported tokens reached the limit %d (config.budget.max_tokens)", b.tokens, b.cfg.MaxTokens)}, nil
		}
	case pointPostReturn:
		meta, _ := p["meta"].(map[string]any)
		if c, ok := number(meta["cost_usd"]); ok {
			b.cost += c
		} else if c, ok := number(meta["total_cost_usd"]); ok {
			b.cost += c
		}
		if u, ok := meta["usage"].(map[string]any); ok {
			in, _ := number(u["input_tokens"])
			out, _ := number(u["output_tokens"])
			b.tokens += int64(in + out)
		} else if t, ok := number(meta["tokens"]); ok {
			b.tokens += int64(t)
		}
	}
	return Result{Outcome: outcomeContinue}, nil
}

// number is v as a float64 when it is a Go number (float or signed int).
func number(v any) (float64, bool) {
	switch rv := reflect.ValueOf(v); {
	case rv.CanFloat():
		return rv.Float(), true
	case rv.CanInt():
		return float64(rv.Int()), true
	}
	return 0, false
}
