package flowtest

import (
	"cmp"
	"context"
	"errors"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/host"
)

// Handler serves a host_handlers stub as a host.Handler, in the order of
// flow-format.md §4.1: delay, request_clarification, by_call, by_op,
// infra_error, then data and error together.
func (s *Stub) Handler() host.Handler {
	return host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
		if s.DelayErr != "" {
			return host.Result{}, errors.New(s.DelayErr)
		}
		res := host.Result{Delay: s.Delay}
		if s.RequestClarification != "" {
			res.Clarification = &host.Clarification{Question: s.RequestClarification, Data: map[string]any{"answer": "string"}, DropAnswer: true}
		}
		e := s.envelope(c)
		if e == nil {
			e = &Envelope{Data: s.Data, Error: s.Error, InfraError: s.InfraError}
		}
		if e.InfraError != "" {
			return res, errors.New(e.InfraError)
		}
		res.Data, res.Error = yamlWhole(jsonvalue.CopyMap(e.Data)).(map[string]any), e.Error
		return res, nil
	})
}

// envelope is the by_call (the effect id rendered at dispatch) or by_op
// answer for c, nil when neither has one (flow-format.md §4.3).
func (s *Stub) envelope(c *host.Call) *Envelope {
	// a call with no id looks up "" (conformance stub-by-call-empty-id)
	if id, _ := c.Args["call"].(string); s.ByCall[id] != nil { // (the parser stores no nil envelope)
		return s.ByCall[id]
	}
	op, _ := c.Args["op"].(string)
	return s.ByOp[cmp.Or(op, c.Op)]
}

// dropHandler serves every host call on the legacy path, where upstream
// invokes none (flow-format.md §1.3).
var dropHandler = host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
	return host.Result{}, nil
})
