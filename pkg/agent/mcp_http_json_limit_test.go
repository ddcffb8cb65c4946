package agent

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/pkg/story"
)

// The answer limit holds for a server that answers with one JSON body
// (Content-Type: application/json, the streamable transport's other form)
// as for one that answers with server-sent events: the SDK reads such a
// body whole, so without a cap a server could send gigabytes.
func TestMCPHTTPJSONAnswerIsCapped(t *testing.T) {
	f := newMCPFixture(t, mcpecho.Options{HTTP: &mcp.StreamableHTTPOptions{JSONResponse: true}})
	tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: f.ts.URL}, "")
	const limit = 256 << 10
	tr.maxEvent = limit
	if resp := askOK(t, tr, withFault("big:"+strconv.Itoa(limit/4))); len(resp.Submission) < limit/4 {
		t.Fatalf("submission of %d bytes", len(resp.Submission))
	}
	ae := askKind(t, tr, context.Background(), withFault("big:"+strconv.Itoa(limit)), KindTransportError)
	if !strings.Contains(ae.Detail, strconv.Itoa(limit)) {
		t.Fatalf("the error does not name the limit:\n%s", ae.Detail)
	}
	if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != referenceSubmission {
		t.Fatalf("after the over-limit answer: %s", resp.Submission)
	}
}
