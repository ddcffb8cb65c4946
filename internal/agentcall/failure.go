package agentcall

import "errors"

// Failure is the error of a failed agent call: FailedCall returns the id
// the call's agent.call.error event carries and the alias the call went to
// (either may be empty). pkg/agent's *AskError is one.
type Failure interface {
	error
	FailedCall() (callID, alias string)
}

// FailedCall returns the call id and alias of the first Failure in err's
// chain; ok is false when there is none.
func FailedCall(err error) (callID, alias string, ok bool) {
	var f Failure
	if !errors.As(err, &f) {
		return "", "", false
	}
	callID, alias = f.FailedCall()
	return callID, alias, true
}
