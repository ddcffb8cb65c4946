package story

import (
	"maps"
	"math"
	"slices"
	"strconv"
)

// Budget is one cycle_budgets: entry of a phases.graph node as upstream
// reads it: the arc (an intent of the phase's <id>_executing state) and
// its limit.
type Budget struct {
	Arc   string
	Limit int
}

// Budgets reads the node's cycle_budgets: as upstream does, in arc order:
// a whole number, a float cut to its integer part (2.9 is 2), or a string
// strconv.Atoi reads ("2", "+2"; not " 2", "1.5" or "0x3"). Any other
// value (a string it cannot read, a bool, null, a list) is no budget at
// all, silently. A limit below 1 is kept here; the caller refuses it
// (`cycle_budgets["<arc>"] must be > 0`). A cycle_budgets: that is not a
// mapping has no budget.
func (n *PhaseNode) Budgets() []Budget {
	m, ok := n.CycleBudgets.(map[string]any)
	if !ok {
		return nil
	}
	var out []Budget
	for _, arc := range slices.Sorted(maps.Keys(m)) {
		if l, ok := budgetLimit(m[arc]); ok {
			out = append(out, Budget{Arc: arc, Limit: l})
		}
	}
	return out
}

func budgetLimit(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case uint64:
		if x > math.MaxInt32 {
			return math.MaxInt32, true
		}
		return int(x), true
	case float64:
		if math.IsNaN(x) {
			return 0, false
		}
		return int(max(min(x, math.MaxInt32), math.MinInt32)), true
	case string:
		n, err := strconv.Atoi(x)
		return n, err == nil
	}
	return 0, false
}
