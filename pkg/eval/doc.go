// Package eval owns story-local agent evals: the [Dataset] format
// (evals/*.yaml), its validation, the call-site walk, hashes, the [Report] and
// its statuses, the comparators and the matrix runner that dispatches every
// candidate through pkg/agent. It must not print, parse flags, edit stories or
// write anything but report files ([WriteFileAtomic]).
//
// In full, it owns story-local agent evals: the dataset format
// (<story>/evals/*.yaml, kind: agent_eval) parsed from YAML nodes so every
// finding has a position, every validation rule (the reference's texts plus
// checks of task, matrix and selection), the call-site walk, the four hashes
// (dataset, prompt, schema, toolbox), report JSON (kind: agent_eval_report)
// with its statuses (unmeasured, stale, passing, failing; invalid for a
// dataset that does not validate), the comparators (exact, field_subset,
// enum, artifact_diff, judge), the matrix runner that answers "which
// backend should answer this call?" by dispatching every candidate ×
// example × repeat through pkg/agent, shard merging, and the selection
// checks `kitsoki validate` and `kitsoki eval check` apply to a pinned
// host.agent.* call.
//
// Layout: dataset.go (types and YAML parsing), validate.go (rules),
// callsite.go (call-site walk), hashes.go, report.go (report types,
// discovery, atomic writes), status.go, compare.go (comparators),
// candidates.go (matrix expansion), judge.go (the judge comparator),
// render.go (prompt and with: rendering
// for a call site), run.go (the runner), summary.go (metrics, adherence
// bar, selection strategies), merge.go (shards), selection.go
// (CheckSelections and Check), html.go (the self-contained report page).
//
// Every candidate's registry and the judge's are built by pkg/compose (a
// compose.Matrix of RunOptions.Plan: the operator profile's disable:,
// redact, budget and external hooks, one hook chain for the whole eval),
// the composition root kitsoki run, test and mcp serve build through.
//
// How a candidate's model and effort reach the backend (per transport):
//
//   - subprocess and mcp_http: the with: block sent in the AskRequest gains
//     "model" and "effort" keys (overriding the call site's, when set). The
//     plugin reads them from params.with / the tool arguments' with.
//   - builtin.claude_cli: the model replaces the declaration's model:, so
//     the CLI runs with --model <model>; effort has no CLI flag and is only
//     recorded (it is also in with.effort, which the CLI transport ignores).
//   - builtin.local_llm: the model replaces the declaration's model: (the
//     managed model id); effort is in with.effort.
//   - builtin.inprocess: with.model / with.effort, as for subprocess.
//   - --cassette: episodes may match on model and effort (with: keys).
//
// Metrics, per candidate, over its calls (examples × repeat):
//
//   - examples_run: the number of calls;
//   - schema_valid_rate: calls whose answer passed the call site's schema;
//   - comparator_pass_rate: calls whose answer was schema-valid and passed
//     the comparator (a failed call fails);
//   - contract_conformance_rate: calls that completed per the wire contract
//     (an answer, even one the schema refuses); plugin_crash,
//     transport_error, deadline_exceeded and sub-event violations do not;
//   - p50/p95 latency (nearest rank) of every call: the dispatch time, not
//     counting time queued behind the same subprocess plugin; in cassette
//     runs the episode's duration_ms;
//   - avg/p95 cost over the calls whose meta reported cost_usd (absent when
//     none did);
//   - retry_rate: calls retried after plugin_crash or transport_error
//     (RunOptions.Retries); fallback_rate: calls whose meta says
//     fallback: true (the backend answered with something other than what
//     was asked for);
//   - pass_k_rate (pass^k): examples whose every repeat passed.
//
// The adherence bar passes a candidate when comparator_pass_rate ≥
// min_pass_rate (1 when the dataset has no bar), p95 latency ≤
// max_p95_latency_ms and avg cost ≤ max_avg_cost_usd (when set and known).
// cheapest_passing picks the passing candidate with the lowest avg cost
// (unknown cost counts as 0; ties by p95 latency, then matrix order);
// fastest_passing the lowest p95 latency (ties by cost).
//
// The package must not print, parse command-line flags, or write anything
// but report files (always via a temporary file renamed into place, so an
// interrupted run leaves nothing partial). It does not edit stories, and it
// reads no file outside the story directory except the dataset and its
// reports.
package eval
