package plugin

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/host"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// TestStoryHostCallsThroughImports: calls of an imported child are listed
// under the import, with iface calls resolved through the importer's
// host_bindings; the listing validates against the report schema.
func TestStoryHostCallsThroughImports(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "child/app.yaml"), `app: { id: child, version: 0.1.0 }
hosts: [host.run, host.ws]
host_interfaces:
  workspace: { default: host.ws, operations: { create: {} } }
exits: [done]
root: c
states:
  c:
    on_enter:
      - invoke: iface.workspace.create
      - invoke: host.run
        with: { cmd: "true" }
        background: true
        on_complete:
          - invoke: host.inbox.add
            with: { title: t, body: b }
    on:
      go: [ { target: "@exit:done" } ]
intents:
  go: {}
`)
	writeFile(t, filepath.Join(root, "parent/app.yaml"), `app: { id: parent, version: 0.1.0 }
hosts: [host.run, host.checkouts, host.inbox.add]
imports:
  kid:
    source: ../child
    host_bindings: { workspace: host.checkouts }
    exits: { done: end }
root: start
states:
  start:
    on:
      go: [ { target: kid } ]
  end: { terminal: true, view: E }
intents:
  go: {}
`)
	st, ds := lint.Load(filepath.Join(root, "parent"), story.Options{Trees: storyload.Trees()})
	if st == nil {
		t.Fatalf("load: %v", ds)
	}
	uses := StoryHostCalls(st)
	var got []string
	for _, u := range uses {
		got = append(got, u.Handler+" @ "+u.Site)
	}
	want := []string{
		`host.checkouts.create @ import "kid": state "c" on_enter[0]`,
		`host.inbox.add @ import "kid": state "c" on_enter[1] on_complete[0]`,
		`host.run @ import "kid": state "c" on_enter[1]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("uses:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	reg := host.Builtins(host.Options{Getenv: noEnv})
	hosts := ListHosts(reg, uses)
	var missing []string
	for _, h := range hosts {
		if h.Source == "missing" {
			missing = append(missing, h.Name)
		}
	}
	if strings.Join(missing, ",") != "host.checkouts" {
		t.Errorf("missing: %v", missing)
	}

	a := assemble(t, root)
	rep := a.Report("parent/app.yaml")
	rep.Hosts = hosts
	b, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, reportSchema(t), b)
}
