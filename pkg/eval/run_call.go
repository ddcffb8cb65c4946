package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/story"
)

// candidateRegistry builds the registry serving one candidate's alias, its
// model in the declaration for claude_cli and local_llm.
func candidateRegistry(mx *compose.Matrix, st *story.Story, sp CandidateSpec, cassette bool) (*agent.Registry, error) {
	var decl *story.AgentPlugin
	if !cassette {
		d := st.AgentPlugins[sp.Alias]
		if d == nil {
			return nil, fmt.Errorf("matrix profile %q: agent_plugins alias %s is not declared", sp.Profile, sp.Alias)
		}
		cp := *d
		if sp.Model != "" && (cp.Plugin == story.PluginClaudeCLI || cp.Plugin == story.PluginLocalLLM) {
			cp.Model = sp.Model
		}
		decl = &cp
	}
	reg, err := mx.Registry(sp.Alias, decl)
	if err != nil {
		return nil, fmt.Errorf("matrix profile %q: %w", sp.Profile, err)
	}
	return reg, nil
}

// runOne dispatches one call through reg (with retries) and scores it
// against ex; opts.Clock times the dispatch (its latency, but in a
// cassette run).
func (r *evalRun) runOne(ctx context.Context, reg *agent.Registry, call agent.Call, ex Example) (CallRecord, error) {
	clock := r.opts.Clock
	if clock == nil {
		clock = time.Now
	}
	cassette := r.cas != nil
	var rec CallRecord
	var res *agent.Result
	var err error
	var elapsed time.Duration
	for {
		t0 := clock()
		res, err = reg.Dispatch(ctx, call)
		elapsed = clock().Sub(t0)
		k := agent.KindOf(err)
		if err == nil || rec.Retries >= r.opts.Retries || ctx.Err() != nil || (k != agent.KindPluginCrash && k != agent.KindTransportError) {
			break
		}
		rec.Retries++
	}
	if ctx.Err() != nil {
		return rec, context.Cause(ctx)
	}
	if err != nil {
		kind := agent.KindOf(err)
		if kind == "" {
			return rec, err
		}
		if !cassette {
			rec.LatencyMS = elapsed.Milliseconds()
		}
		rec.Conformant = kind == agent.KindSchemaInvalid
		rec.Reason = reg.Redact(err.Error())
		return rec, nil
	}
	rec.LatencyMS = elapsed.Milliseconds()
	if cassette {
		ms, _ := metaFloat(res.Meta, "duration_ms")
		rec.LatencyMS = int64(ms)
	}
	if c, ok := metaFloat(res.Meta, "cost_usd"); ok {
		rec.CostUSD = &c
	}
	if u, ok := res.Meta["usage"].(map[string]any); ok {
		in, okIn := metaFloat(u, "input_tokens")
		out, okOut := metaFloat(u, "output_tokens")
		if (okIn || okOut) && in >= 0 && out >= 0 && in < 1e15 && out < 1e15 {
			rec.Tokens = &[2]int64{int64(in), int64(out)}
		}
	}
	if fb, _ := res.Meta["fallback"].(bool); fb {
		rec.Fallback = true
	}
	rec.Conformant = true
	rec.SchemaValid = call.Schema == nil || res.Value != nil
	actual := jsonvalue.RoundTrip(res.Value)
	if r.d.Comparator.Kind == "judge" {
		rec.Pass, rec.Reason, err = r.judge.judge(ctx, ex, actual)
		if err != nil {
			return rec, err
		}
	} else {
		rec.Pass, rec.Reason = compareAnswer(r.d.Comparator, ex.Expect, actual)
	}
	if !rec.SchemaValid {
		rec.Pass = false
		if rec.Reason == "" {
			rec.Reason = "no submission"
		}
	}
	if !rec.Pass {
		rec.Actual = redactValue(reg, actual)
	}
	return rec, nil
}

func metaFloat(m map[string]any, k string) (float64, bool) {
	switch x := m[k].(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// redactValue masks every declared secret inside a JSON value.
func redactValue(reg *agent.Registry, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal([]byte(reg.Redact(string(b))), &out) != nil {
		return agent.Redacted
	}
	return out
}
