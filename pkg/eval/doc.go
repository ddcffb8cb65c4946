// Package eval owns story-local agent evals: the [Dataset] format
// (evals/*.yaml), its validation, the call-site walk, hashes, the [Report] and
// its statuses, the comparators and the matrix runner that dispatches every
// candidate through pkg/agent. It must not print, parse flags, edit stories or
// write anything but report files ([WriteFileAtomic]).
//
// Datasets (kind: agent_eval) are parsed from YAML nodes so every finding has
// a position. A report (kind: agent_eval_report) is unmeasured, stale,
// passing or failing, or invalid when its dataset does not validate; reports
// are written through a temporary file renamed into place, so an interrupted
// run leaves nothing partial, and nothing outside the story directory is
// read but the dataset and its reports. Every candidate's registry and the
// judge's are built by pkg/compose ([kitsoki/pkg/compose.Matrix]: the
// operator profile's disable:, redact, budget and external hooks, one hook
// chain for the whole eval).
//
// Every request's with: gains the candidate's "model" and "effort" keys
// (overriding the call site's), which subprocess, mcp_http and
// builtin.inprocess plugins read and --cassette episodes may match on.
// builtin.claude_cli and builtin.local_llm also take the model in place of
// the declaration's model: (claude_cli's --model; the CLI ignores
// with.effort, so there effort is only recorded).
//
// Metrics per candidate, over its calls (examples × repeat):
//
//	examples_run               the number of calls
//	schema_valid_rate          answers that passed the call site's schema
//	comparator_pass_rate       schema-valid answers that passed the comparator
//	contract_conformance_rate  calls that completed per the wire contract (not plugin_crash,
//	                           transport_error, deadline_exceeded or a sub-event violation)
//	p50/p95 latency            nearest rank of the dispatch time (not time queued behind the
//	                           same subprocess plugin); in cassette runs the episode's duration_ms
//	avg/p95 cost               over calls whose meta reported cost_usd (absent when none did)
//	retry_rate                 calls retried after plugin_crash or transport_error
//	fallback_rate              calls whose meta says fallback: true
//	pass_k_rate                pass^k: examples whose every repeat passed
//
// The adherence bar passes a candidate when comparator_pass_rate ≥
// min_pass_rate (1 without a bar), p95 latency ≤ max_p95_latency_ms and avg
// cost ≤ max_avg_cost_usd (when set and known). cheapest_passing picks the
// lowest avg cost (unknown counts as 0; ties by p95 latency, then matrix
// order); fastest_passing the lowest p95 latency (ties by cost).
//
// Layout: dataset.go, validate.go, callsite.go, hashes.go, report.go
// (types, discovery, atomic writes), status.go, compare.go, judge.go,
// candidates.go (matrix expansion), render.go (prompt and with: of a call
// site), run.go (the runner), summary.go (metrics, bar, strategies),
// merge.go (shards), selection.go ([CheckSelections], [Check]), html.go (the
// self-contained report page).
package eval
