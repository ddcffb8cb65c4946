package pluginkit_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"kitsoki/pkg/pluginkit"
)

// A whole plugin is a Handler and a call to Serve; ServeIO runs the same
// loop on explicit streams, as here.
func ExampleServeIO() {
	answer := func(ctx context.Context, req *pluginkit.Request) (*pluginkit.Response, error) {
		if req.Verb != "decide" {
			return nil, fmt.Errorf("verb %q is not supported", req.Verb)
		}
		return pluginkit.Submit(map[string]any{"decision": "approve"}, map[string]any{"model": "rules/1"})
	}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"agent.ask","params":{"verb":"decide","prompt":"ship it?"}}` + "\n")
	_ = pluginkit.ServeIO(context.Background(), in, os.Stdout, answer)
	// in main: if err := pluginkit.Serve(answer); err != nil { log.Fatal(err) }

	// Output:
	// {"jsonrpc":"2.0","id":7,"result":{"submission":{"decision":"approve"},"meta":{"model":"rules/1"}}}
}

// A Handler fails a call by returning an error: a plain one is answered
// with CodeServer, an *Error keeps its code and data. kitsoki reports
// either as plugin_crash with the message.
func ExampleError() {
	answer := func(ctx context.Context, req *pluginkit.Request) (*pluginkit.Response, error) {
		return nil, &pluginkit.Error{Code: pluginkit.CodeServer, Message: "the rules file is missing", Data: map[string]any{"path": "rules.yaml"}}
	}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"agent.ask","params":{"verb":"decide"}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"agent.cancel","params":{}}` + "\n")
	_ = pluginkit.ServeIO(context.Background(), in, os.Stdout, answer)
	// Output:
	// {"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"the rules file is missing","data":{"path":"rules.yaml"}}}
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: agent.cancel"}}
}
