package flowtest

import "testing"

// A fixture names nothing inside a .git directory: an expect_files
// content_matches on a checkout's .git/config (where actions/checkout
// keeps the CI job's token) passed or failed by the token's characters,
// one character per fixture, under kitsoki test --sandbox. The refusal is
// by name, whatever is there.
func TestFixtureNamesNothingInGitDir(t *testing.T) {
	rs := runFlow(t, `test_kind: flow
initial_state: a`+stubs+`
turns:
  - intent: { name: go }
expect_files:
  - { path: .git/config, content_matches: "basic canary" }
  - { path: .GIT/absent, must_not_exist: true }
`, map[string]string{".git/config": "[http]\n\textraheader = AUTHORIZATION: basic canary-41c7\n"}, Options{})
	wantFail(t, rs[0], `expect_files ".git/config" is inside a .git directory`, `expect_files ".GIT/absent" is inside a .git directory`)
}
