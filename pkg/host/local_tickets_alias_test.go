package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
)

// TestTicketFrontMatterAliasTextBounded: a ticket's front matter whose
// aliases repeat more than yamlnode.MaxAliasText of text does not parse
// (a domain error naming the bound); comment and transition wrote it back
// with every alias expanded (a 1 MB file naming a 1 MB anchor 70 times
// became a 70 MB file, 100,000 times some 100 GB in memory, whatever the
// sandbox's write budget), and the file is left as it was.
func TestTicketFrontMatterAliasTextBounded(t *testing.T) {
	h, env, wd := ticketsEnv(t)
	src := "---\ntitle: big\nbig: " + aliasmb.Anchors() + "\nmore: [" + strings.Repeat("*mb, ", 70) + "x]\n---\nbody\n"
	writeTree(t, wd, map[string]string{"issues/bugs/A-1.md": src})
	wantDomainErr(t, h, env, map[string]any{"op": "transition", "id": "A-1", "to": "done"}, "transition", "the aliases of this front matter repeat more than 64 MB")
	wantDomainErr(t, h, env, map[string]any{"op": "comment", "id": "A-1", "body": "x"}, "comment", "the aliases of this front matter repeat more than 64 MB")
	if b, err := os.ReadFile(filepath.Join(wd, "issues/bugs/A-1.md")); err != nil || string(b) != src {
		t.Errorf("the ticket file changed (%d bytes, %v)", len(b), err)
	}
	writeTree(t, wd, map[string]string{"issues/bugs/A-2.md": "---\ntitle: small\nk: &k key\nmore: [*k, *k]\n---\nbody\n"})
	mustOK(t, h, env, map[string]any{"op": "transition", "id": "A-2", "to": "done"})
}
