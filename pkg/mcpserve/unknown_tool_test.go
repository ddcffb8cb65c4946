package mcpserve

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call to a misspelt tool says what the story offers and the closest
// name, not that a tool the client never saw "is no longer offered".
func TestUnknownToolNamesWhatIsOffered(t *testing.T) {
	url := upstream(t)
	_, dir := writeStory(t, storyYAML(url))
	s := newServer(t, dir)
	cs := connectPipe(t, s, nil)
	for _, tc := range []struct{ name, want string }{
		{"kitsoki_agent_remote_decdie", "offered now: kitsoki_agent_remote_ask, kitsoki_agent_remote_decide (did you mean `kitsoki_agent_remote_decide`?); list the tools again"},
		{"kitsoki_remote_decide", "the story does not offer it (misspelt, or its alias was removed or disabled); offered now: kitsoki_agent_remote_ask, kitsoki_agent_remote_decide; list"},
	} {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.name, Arguments: map[string]any{"prompt": "p"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := callText(r); !r.IsError || !strings.Contains(got, tc.want) {
			t.Errorf("call to %s: %q, want it to contain %q", tc.name, got, tc.want)
		}
	}
}
