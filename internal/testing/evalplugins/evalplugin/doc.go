// Command evalplugin owns the subprocess agent plugin pkg/eval's tests build
// and run, behaving per with.model so every runner metric has a known expected
// value. It must not be built or run outside tests.
//
// It speaks JSON-RPC 2.0, one message per line, method agent.ask, and
// classifies a merge: intent "accept" when args.merge_sha is set, else
// "refine". Per with.model:
//
//	good     always right; meta.cost_usd 0.001
//	sloppy   always "accept" (wrong when merge_sha is empty); cost 0.0005;
//	         meta.fallback true for pr_id "1"
//	broken   pr_id "2": intent "maybe" (schema-invalid); pr_id "4": a
//	         JSON-RPC error (plugin_crash, process kept); else right
//	leaky    always "refine", with reason "token $EVAL_TOKEN" (a secret)
//	hang     never answers (interrupt tests)
//	slow     right; with EVAL_SLOWFIFO and EVAL_SLOWCALL=n set, the n-th
//	         call for slow is held until the test lets it go (see
//	         holdSlowCall); without them every call is a JSON-RPC error
//	(judge)  a call whose with: has expect (the judge comparator's call):
//	         verdict pass when with.actual.intent equals with.expect.intent
//
// Every answer's meta carries model and effort as received. With
// EVAL_HANGFILE set, a call for hang first writes the plugin's pid and a
// newline there, so a test can wait for the call to have arrived.
package main
