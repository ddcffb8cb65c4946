package flowtest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"

	"golang.org/x/sync/errgroup"
)

// IntentOptions configure [RunIntents].
type IntentOptions struct {
	Harness Harness
	Machine *engine.Machine
	// Jobs is how many inputs are routed at once (0 = number of CPUs);
	// the runs of one input are sequential.
	Jobs int
	// Runs overrides every fixture's runs (0 = the fixtures' own).
	Runs int
	// MaxCost stops starting runs once the harness has reported this much
	// cost in USD (0 = no limit).
	MaxCost float64
	// HarnessType, HarnessModel and AgentBackend are copied to the report.
	HarnessType, HarnessModel, AgentBackend string
}

// RunIntents routes every input of every fixture Runs times through the
// harness and judges each answer (flow-format.md §8).
func RunIntents(ctx context.Context, suites []*IntentSuite, o IntentOptions) *IntentReport {
	start := time.Now()
	rep := &IntentReport{HarnessType: o.HarnessType, HarnessModel: o.HarnessModel, AgentBackend: o.AgentBackend}
	type unit struct {
		fx *IntentFixture
		in *IntentInputReport
	}
	var units []unit
	for _, s := range suites {
		for _, fx := range s.Fixtures {
			fr := &IntentFixtureReport{ID: fx.ID, State: fx.State, MinPassRate: fx.MinPassRate, fx: fx}
			rep.Fixtures = append(rep.Fixtures, fr)
			for _, in := range fx.Inputs {
				ir := &IntentInputReport{Input: in}
				fr.Inputs = append(fr.Inputs, ir)
				units = append(units, unit{fx: fx, in: ir})
			}
		}
	}
	world, _ := engine.InitWorld(o.Machine.World, nil, nil)
	b := &budget{max: o.MaxCost}
	var g errgroup.Group
	g.SetLimit(parallel(o.Jobs))
	for _, u := range units {
		g.Go(func() error {
			routeInput(ctx, o, u.fx, u.in, cmp.Or(o.Runs, u.fx.Runs), world, b)
			return nil
		})
	}
	_ = g.Wait()
	for _, fr := range rep.Fixtures {
		fr.total()
		if fr.Passed {
			rep.TotalPassed++
		} else {
			rep.TotalFailed++
		}
		rep.TotalRuns += fr.TotalRuns
		for _, in := range fr.Inputs {
			rep.CostUSD += in.CostUSD
			if in.Runs > 0 { // upstream counts the inputs that were routed
				rep.TotalInputs++
			}
		}
	}
	rep.Stopped = b.stopped()
	rep.DurationMillis = time.Since(start).Milliseconds()
	return rep
}

// budget is the --max-cost ledger shared by every input.
type budget struct {
	mu    sync.Mutex
	max   float64
	spent float64
	over  bool
}

func (b *budget) spend(c float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.spent += c
	if b.max > 0 && b.spent >= b.max {
		b.over = true
	}
}

func (b *budget) exhausted() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over
}

func (b *budget) stopped() string {
	if !b.exhausted() {
		return ""
	}
	return fmt.Sprintf("stopped after spending $%.4f: --max-cost %.4f reached; the remaining runs were not made", b.spent, b.max)
}

func routeInput(ctx context.Context, o IntentOptions, fx *IntentFixture, in *IntentInputReport, runs int, world map[string]any, b *budget) {
	start := time.Now()
	defer func() { in.DurationMillis = time.Since(start).Milliseconds() }()
	allowed := o.Machine.AllowedIntents(fx.State)
	if len(allowed) == 0 {
		// every run fails without asking the harness, as upstream
		_, _, err := o.Machine.CheckIntent(fx.State, "", nil)
		in.Runs, in.FirstError = runs, err.Error()
		return
	}
	for run := range runs {
		if ctx.Err() != nil || b.exhausted() {
			return
		}
		ans, err := o.Harness.Route(ctx, RouteRequest{State: fx.State, Input: in.Input, Allowed: allowed, World: jsonvalue.CopyMap(world), Run: run})
		if ans != nil {
			in.CostUSD += ans.CostUSD
			b.spend(ans.CostUSD)
			if in.FirstUsage == nil && ans.Usage != nil {
				in.FirstUsage = ans.Usage
			}
		}
		counted, passed := judgeRoute(o.Machine, fx, ans, err, in)
		if counted {
			in.Runs++
			if passed {
				in.Passed++
			}
		}
	}
}

// judgeRoute judges one answer: whether the run counts (a recording miss
// counts only for expect_failure) and whether it passed.
func judgeRoute(m *engine.Machine, fx *IntentFixture, ans *RouteAnswer, err error, in *IntentInputReport) (counted, passed bool) {
	if err != nil {
		if fx.ExpectFailure != nil {
			return true, true
		}
		if errors.Is(err, ErrRecordingMiss) {
			return false, false
		}
		in.FirstError = cmp.Or(in.FirstError, err.Error())
		return true, false
	}
	var given map[string]any // an answer with no slot map gets no defaults
	if ans.Slots != nil {
		given = jsonvalue.CopyMap(ans.Slots)
	}
	slots, rej, cerr := m.CheckIntent(fx.State, ans.Intent, given)
	if in.FirstActualIntent == "" && in.FirstActualSlots == nil {
		// the answer as validation left it (defaults written in)
		in.FirstActualIntent = ans.Intent
		if len(slots) > 0 {
			in.FirstActualSlots = slots
		}
	}
	if cerr != nil {
		in.FirstError = cmp.Or(in.FirstError, cerr.Error())
		return true, false
	}
	switch {
	case fx.ExpectFailure != nil:
		return true, rej != nil && (slices.Contains(fx.ExpectFailure.AnyOf, "clarify") || slices.Contains(fx.ExpectFailure.AnyOf, rej.Code))
	case fx.ExpectFallthrough || !fx.HasIntent:
		return true, rej == nil
	}
	return true, rej == nil && ans.Intent == fx.Intent && slotsMatch(fx.Slots, slots)
}

// slotsMatch reports whether every expected slot deep-equals the
// answer's as JSON (a missing one is null).
func slotsMatch(want, got map[string]any) bool {
	for k, w := range want {
		if !reflect.DeepEqual(jsonvalue.RoundTrip(w), jsonvalue.RoundTrip(got[k])) {
			return false
		}
	}
	return true
}
