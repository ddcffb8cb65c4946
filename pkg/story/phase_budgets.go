package story

import (
	"maps"
	"math"
	"slices"
	"strconv"
)

// Budget is one cycle_budgets: entry of a phases.graph node: the arc (an
// intent of <id>_executing) and its limit.
type Budget struct {
	Arc   string
	Limit int
}

// Budgets reads the node's cycle_budgets: as upstream does, in arc order: a
// whole number, a float cut to its integer part, or a string strconv.Atoi
// reads; any other value is silently no budget. A limit below 1 is kept
// (the caller refuses it).
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
