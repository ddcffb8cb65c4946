package flowtest

import "kitsoki/pkg/host"

func hostCall(handler, op string, args map[string]any) *host.Call {
	if args == nil {
		args = map[string]any{}
	}
	return &host.Call{Handler: handler, Op: op, Args: args}
}
