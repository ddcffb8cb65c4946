package flowtest

import (
	"context"

	"kitsoki/pkg/host"
)

// ideAnswers are upstream's built-in IDE handlers and what each answers
// in its flow runner, where no IDE is connected, whatever the arguments
// (conformance ide-absent).
var ideAnswers = map[string]func() map[string]any{
	"host.ide.get_diagnostics": func() map[string]any {
		return map[string]any{"connected": false, "diagnostics": []any{}}
	},
	"host.ide.get_selection": func() map[string]any {
		return map[string]any{"connected": false, "file": "", "range": nil, "text": ""}
	},
	"host.ide.get_open_editors": func() map[string]any {
		return map[string]any{"connected": false, "editors": []any{}}
	},
	"host.ide.open_file": func() map[string]any { return map[string]any{"connected": false, "ok": false} },
	"host.ide.open_diff": func() map[string]any { return map[string]any{"connected": false, "ok": false} },
}

// registerIDEAbsent registers upstream's answer for each IDE handler (a
// fixture's stubs, registered later, replace it).
func registerIDEAbsent(reg *host.Registry) {
	for name, data := range ideAnswers {
		reg.Register(name, host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
			return host.Result{Data: data()}, nil
		}))
	}
}
