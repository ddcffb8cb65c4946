package mcpserve

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"kitsoki/internal/human"
	"kitsoki/internal/jsoncost"
)

// costlyMessage refuses a message whose params (a request's or a
// notification's) or result (a client's answer) would take over
// jsoncost's limit once read: the SDK decodes them whole, a _meta or a
// client capability into any (TestStdioCostlyParamsAreRefused). A tool's arguments are checked again against the same rule
// (checkInput) with the tool's own message. An HTTP body is not checked:
// its 4 MiB cap (MaxRequestBody) stays under jsoncost.Floor.
func costlyMessage(msg jsonrpc.Message, floor int64) error {
	var raw json.RawMessage
	what := "params"
	switch m := msg.(type) {
	case *jsonrpc.Request:
		raw = m.Params
	case *jsonrpc.Response:
		raw, what = m.Result, "result"
	}
	if limit, over := jsoncost.Over(raw, floor); over {
		return fmt.Errorf("its %s (%s) would take over %s once read (millions of empty objects, arrays or values); send fewer in one message", what, human.Size(int64(len(raw))), human.Size(limit))
	}
	return nil
}
