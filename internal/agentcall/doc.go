// Package agentcall holds what pkg/agent and pkg/engine share about one
// agent call, so that the engine need not import the transports: the
// deterministic call id ([ID], [LiveID], [CassetteID]; trace-eval.md A.11)
// and [FailedCall], which reads the call id and alias off a failed call's
// error (pkg/agent's *AskError, a [Failure]); and, with pkg/trace, the
// token counts of a call ([Usage]). It imports nothing of kitsoki's.
package agentcall
