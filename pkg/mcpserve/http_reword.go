package mcpserve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"kitsoki/internal/jsonvalue"
)

// sdkMalformed starts the SDK's answer to a POST body it cannot read as
// JSON-RPC messages. Its reason is the decoder's, which may name a Go
// type ("invalid ID type map[string]interface {}") and never a place.
const sdkMalformed = "malformed payload: "

// rewordAnswer words again, in the request body's own terms, the SDK's
// refusals that name its Go types and no place: it holds back a 400 answer
// and, when it is the SDK's malformed-payload refusal, says where the body
// breaks (envelopeFault); in an event stream it rewrites the SDK's refusal
// of a request's params (rewordEvent). Any other answer passes through as
// written and as it is flushed, so an event stream is never held.
type rewordAnswer struct {
	http.ResponseWriter
	body []byte // the request's
	held bool
	buf  bytes.Buffer
}

func (m *rewordAnswer) WriteHeader(code int) {
	if code == http.StatusBadRequest && !m.held {
		m.held = true
		return
	}
	m.ResponseWriter.WriteHeader(code)
}

func (m *rewordAnswer) Write(p []byte) (int, error) {
	if m.held {
		return m.buf.Write(p)
	}
	if strings.HasPrefix(m.Header().Get("Content-Type"), "text/event-stream") {
		if q := rewordEvent(p, m.body); len(q) != len(p) || !bytes.Equal(q, p) {
			_, err := m.ResponseWriter.Write(q)
			return len(p), err
		}
	}
	return m.ResponseWriter.Write(p)
}

// Flush passes a flush on unless the answer is held.
func (m *rewordAnswer) Flush() {
	if !m.held {
		_ = http.NewResponseController(m.ResponseWriter).Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (m *rewordAnswer) Unwrap() http.ResponseWriter { return m.ResponseWriter }

// finish sends a held answer, the SDK's malformed-payload refusal worded
// again.
func (m *rewordAnswer) finish() {
	if !m.held {
		return
	}
	out := m.buf.Bytes()
	if bytes.HasPrefix(out, []byte(sdkMalformed)) {
		m.Header().Del("Content-Length")
		out = fmt.Appendf(nil, "kitsoki mcp serve: the request body is not a JSON-RPC 2.0 message: %s; send one message (an object with \"jsonrpc\": \"2.0\" and a method or an id) per request\n", envelopeFault(m.body))
	}
	m.ResponseWriter.WriteHeader(http.StatusBadRequest)
	_, _ = m.ResponseWriter.Write(out)
}

// envelopeFault says what keeps body, which the SDK refused, from being a
// JSON-RPC message or a batch of them: where its JSON breaks, or which
// member of which message is of the wrong kind.
func envelopeFault(body []byte) string {
	var v any
	if err := jsonvalue.OneExact(body, &v); err != nil {
		return jsonvalue.Reason(body, err)
	}
	batch, ok := v.([]any)
	if !ok {
		return messageFault(v)
	}
	if len(batch) == 0 {
		return "it is an empty batch ([])"
	}
	for i, m := range batch {
		if f := messageFault(m); f != "" {
			return fmt.Sprintf("message %d of the batch: %s", i+1, f)
		}
	}
	return "the server could not read it as one"
}

// messageFault says what keeps v from being one JSON-RPC message, or "".
func messageFault(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("it is %s, not an object", jsonvalue.WithArticle(jsonvalue.Kind(v)))
	}
	if tag, ok := m["jsonrpc"].(string); !ok || tag != "2.0" {
		return "\"jsonrpc\" must be the string \"2.0\""
	}
	id, hasID := m["id"]
	switch x := id.(type) {
	case nil, string:
	case json.Number:
		if _, err := x.Float64(); err != nil {
			return fmt.Sprintf("\"id\" is %s, out of range of a 64-bit float", x)
		}
	default:
		return fmt.Sprintf("\"id\" is %s; an id is a string or a number", jsonvalue.WithArticle(jsonvalue.Kind(id)))
	}
	method, hasMethod := m["method"]
	if _, ok := method.(string); hasMethod && !ok {
		return fmt.Sprintf("\"method\" is %s; a method is a string", jsonvalue.WithArticle(jsonvalue.Kind(method)))
	}
	if !hasMethod && (!hasID || id == nil) {
		return "it has neither a \"method\" (a request) nor an \"id\" (an answer)"
	}
	if e, ok := m["error"]; ok && e != nil {
		eo, ok := e.(map[string]any)
		if !ok {
			return fmt.Sprintf("\"error\" is %s; an error is an object", jsonvalue.WithArticle(jsonvalue.Kind(e)))
		}
		if _, ok := jsonvalue.Integer(jsonvalue.Int64s(eo["code"])); eo["code"] != nil && !ok {
			return "\"error\".\"code\" must be an integer"
		}
		if msg, ok := eo["message"]; ok && msg != nil {
			if _, ok := msg.(string); !ok {
				return "\"error\".\"message\" must be a string"
			}
		}
	}
	return ""
}
