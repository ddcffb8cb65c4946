// Package eval owns story-local agent evals: the [Dataset] format
// (evals/*.yaml), its validation, the call-site walk, hashes, the [Report] and
// its statuses, the comparators, the matrix runner that dispatches every
// candidate through pkg/agent, and the text, HTML, JUnit and Markdown that
// show a dataset, a report or a [Diff]. It must not parse flags, choose
// where text goes, edit stories or write anything but report files
// ([WriteFileAtomic]).
//
// Registries are built by pkg/compose ([kitsoki/pkg/compose.Matrix]), so an
// eval dispatches as a run does. Every request's with: gains the
// candidate's "model" and "effort"; builtin.claude_cli and
// builtin.local_llm also take the model in place of the declaration's.
// With a cassette, the cassette answers every matrix profile (one that is
// no agent_plugins alias as agent.<profile>), with backend "cassette" and
// no model unless matrix.models names one ([Validation.ForCassette] keeps
// the warnings true of that run). Text, the diff's labels, the decision's
// rejected_summary and JUnit names show a candidate as
// profile[/model][ effort=e]; a candidate's key (profile/model/effort) is
// what reports, shards and diffs are matched on.
//
// Metrics per candidate, over its calls (examples × repeat):
//
//	examples_run               the number of calls
//	schema_valid_rate          answers that passed the call site's schema
//	comparator_pass_rate       schema-valid answers that passed the comparator
//	contract_conformance_rate  calls that completed per the wire contract (not plugin_crash,
//	                           transport_error, deadline_exceeded or a sub-event violation)
//	p50/p90/p95/p99 latency    nearest rank of the dispatch time (not time queued behind the
//	                           same subprocess plugin); in cassette runs the episode's duration_ms
//	avg/p95 cost               over calls whose meta reported cost_usd, or priced by
//	                           matrix.cost_per_hour_usd × latency (absent when neither)
//	avg input/output tokens    over calls whose meta reported usage
//	retry_rate                 calls retried after plugin_crash or transport_error
//	fallback_rate              calls whose meta says fallback: true
//	pass_k_rate                pass^k: examples whose every repeat passed
//	pass_rate_ci95             Wilson 95% interval of comparator_pass_rate
//	flaky_examples             examples that passed on some repeats and failed on others
//
// The adherence bar passes a candidate when comparator_pass_rate ≥
// min_pass_rate (1 without a bar), pass_k_rate ≥ min_pass_k_rate, p95
// latency ≤ max_p95_latency_ms and avg cost ≤ max_avg_cost_usd (when set
// and known). cheapest_passing picks the
// lowest avg cost (unknown counts as 0; ties by p95 latency, then matrix
// order); fastest_passing the lowest p95 latency (ties by cost).
package eval
