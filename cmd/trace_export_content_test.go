package cmd

import (
	"strings"
	"testing"
)

// TestTraceExportContentFlag checks that kitsoki trace export leaves
// prompts and answers out unless --content asks for them.
func TestTraceExportContentFlag(t *testing.T) {
	out, errOut, code := trRun(t, "", "trace", "export", trTriage)
	if code != 0 || strings.Contains(out, "gen_ai.input.messages") {
		t.Fatalf("without --content: exit %d %s", code, errOut)
	}
	out, errOut, code = trRun(t, "", "trace", "export", "--content", trTriage)
	if code != 0 || !strings.Contains(out, `"gen_ai.input.messages"`) || !strings.Contains(out, `"gen_ai.output.messages"`) || strings.Contains(out, "kitsoki.content_error") {
		t.Fatalf("with --content: exit %d %s\n%s", code, errOut, out)
	}
}
